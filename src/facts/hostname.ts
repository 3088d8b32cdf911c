// Host name: `uname -n` is the node name (works without the hostname binary); the short name is its first label.
import { oneLine, type FactProbe } from './types.js';

export interface HostName {
  nodename: string;
  hostname: string;
}

export const hostnameFact: FactProbe<HostName> = {
  id: 'hostname',
  command: 'uname -n',
  parse(o) {
    const nodename = oneLine('uname -n', o);
    return { nodename, hostname: nodename.split('.')[0]! };
  },
};
