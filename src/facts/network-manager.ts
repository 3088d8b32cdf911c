// NetworkManager: is nmcli there, is the daemon running, and which device plugins are installed
// (e.g. ovs: without libnm-device-plugin-ovs.so, `type ovs-bridge` connections never activate).
import { toolMissing, type FactProbe } from './types.js';

export interface NetworkManagerFacts {
  present: boolean;
  running: boolean;
  /** Plugin names from libnm-device-plugin-<name>.so, sorted. */
  plugins: string[];
}

const PLUGIN_DIRS = ['/usr/lib/*/NetworkManager/*', '/usr/lib64/NetworkManager/*', '/usr/lib/NetworkManager/*'];

export const networkManagerFact: FactProbe<NetworkManagerFacts> = {
  id: 'networkmanager',
  command: `ls -1 ${PLUGIN_DIRS.map((d) => `${d}/libnm-device-plugin-*.so`).join(' ')}; nmcli -t -f RUNNING general`,
  parse(o) {
    const lines = o.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
    const plugins = [...new Set(lines.flatMap((l) => /libnm-device-plugin-([\w-]+)\.so$/.exec(l)?.[1] ?? []))].sort();
    const state = lines.filter((l) => !l.endsWith('.so')).pop();
    const present = !toolMissing(o) || plugins.length > 0;
    return { present, running: o.rc === 0 && state === 'running', plugins };
  },
};
