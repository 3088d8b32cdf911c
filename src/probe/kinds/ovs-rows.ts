// Read-only ovs-vsctl queries as mergeable probes (../merge.ts): the OVS rows a batch's
// tasks read (bridges, ports, Open_vSwitch columns) come from ONE ovs-vsctl call, its commands
// separated by `--`, each printing one JSON table per line. ovs-vsctl starts at ~10 ms of host CPU
// (it connects to ovsdb-server), so a play with five OVS tasks saves ~40 ms per host.
import { mergeableRead } from '../merge.js';
import type { MergeKind, ProbeRead } from '../types.js';
import { shellJoin } from '../../transports/quote.js';
import { requireTool, section, splitSections } from '../sections.js';

export const VSCTL = 'ovs-vsctl --timeout=5';

export interface VsctlRead {
  /** The section the probe's parser reads. */
  section: string;
  /** ovs-vsctl commands (with their --columns), each printing one table. */
  commands: string[][];
}

const words = (commands: string[][]) => (commands.length === 1 ? commands[0] : commands.flatMap((c) => ['--', ...c]));
const query = (name: string, commands: string[][]) => `${requireTool('ovs-vsctl')}; ${section(name, shellJoin([...VSCTL.split(' '), '--format=json', ...words(commands)]))}`;

export const vsctlReadKind: MergeKind<VsctlRead> = {
  name: 'ovs-vsctl',
  script: (reads) => query('all', reads.flatMap((r) => r.commands)),
  split(stdout, reads) {
    const { sections, missing } = splitSections(stdout);
    const all = sections.get('all');
    // ovs-vsctl missing or failing (daemon down, no such row): each probe reports its own error.
    if (missing.length || !all || all.rc !== 0) return undefined;
    const lines = all.out.split('\n').filter((l) => l.trim() !== '');
    const wanted = reads.reduce((n, r) => n + r.commands.length, 0);
    if (lines.length !== wanted || !lines.every((l) => l.startsWith('{'))) return undefined;
    let i = 0;
    return reads.map((r) => `::sec ${r.section}\n${lines.slice(i, (i += r.commands.length)).join('\n')}\n::rc 0\n`);
  },
};

/** An OVS read as a batch's probe (alone it prints its own section). */
export function vsctlRead(read: VsctlRead): ProbeRead {
  return mergeableRead(query(read.section, read.commands), vsctlReadKind, read);
}
