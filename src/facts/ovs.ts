// Open vSwitch: installed (ovs-vsctl), its version, and whether ovsdb-server's socket exists.
import { toolMissing, type FactProbe } from './types.js';

export interface OvsFacts {
  present: boolean;
  version?: string;
  dbSchema?: string;
  /** /run/openvswitch/db.sock exists (ovsdb-server up). */
  running: boolean;
}

export const ovsFact: FactProbe<OvsFacts> = {
  id: 'ovs',
  command: 'ovs-vsctl --version && { [ -S /run/openvswitch/db.sock ] && echo @db-sock; true; }',
  parse(o) {
    if (toolMissing(o)) return { present: false, running: false };
    const version = /\(Open vSwitch\)\s+(\S+)/.exec(o.stdout)?.[1];
    const dbSchema = /^DB Schema\s+(\S+)/m.exec(o.stdout)?.[1];
    return {
      present: o.rc === 0 && !!version,
      ...(version ? { version } : {}),
      ...(dbSchema ? { dbSchema } : {}),
      running: o.stdout.includes('@db-sock'),
    };
  },
};
