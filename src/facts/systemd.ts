// Is PID 1 systemd? Like sd_booted(): /run/systemd/system exists; else the name of PID 1's binary.
import type { FactProbe } from './types.js';

export interface ServiceManager {
  systemd: boolean;
  /** Basename of PID 1's executable when readable (systemd, init, tini, sh ...). */
  pid1?: string;
}

export const systemdFact: FactProbe<ServiceManager> = {
  id: 'systemd',
  command: 'readlink /proc/1/exe; [ -d /run/systemd/system ] && echo @run-systemd-system',
  parse(o) {
    const lines = o.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
    const exe = lines.find((l) => l.startsWith('/'));
    const pid1 = exe?.split('/').pop()?.replace(/ \(deleted\)$/, '');
    return { systemd: lines.includes('@run-systemd-system') || pid1 === 'systemd', ...(pid1 ? { pid1 } : {}) };
  },
};
