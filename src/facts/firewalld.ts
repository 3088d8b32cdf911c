// firewalld: installed (firewall-cmd on PATH) and running (systemctl is-active; without systemd, unknown = not running).
import type { FactProbe } from './types.js';

export interface FirewalldFacts {
  present: boolean;
  running: boolean;
  /** systemctl's word: active, inactive, failed, ... ('' when systemctl could not tell). */
  state: string;
}

export const firewalldFact: FactProbe<FirewalldFacts> = {
  id: 'firewalld',
  command: 'command -v firewall-cmd; systemctl is-active firewalld',
  parse(o) {
    const lines = o.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
    const state = lines.filter((l) => !l.startsWith('/')).pop() ?? '';
    return { present: lines.some((l) => l.startsWith('/')), running: o.rc === 0 && state === 'active', state };
  },
};
