// datapath_type auto: the kernel datapath (system) where the kernel has the openvswitch module - loaded,
// built in or loadable - as real hosts do; OVS's userspace datapath (netdev) elsewhere (a container on a
// kernel without the module, where a system bridge cannot even be created).
import type { Section } from '../../probe/sections.js';

export type OvsKernel = 'loaded' | 'available' | 'missing';

/** Probe text: loaded (in /sys/module), available (modprobe -n finds it, built in or a file), or missing. */
export const KMOD_PROBE = '[ -d /sys/module/openvswitch ] && echo loaded || { PATH="$PATH:/usr/sbin:/sbin" modprobe -n -q openvswitch 2>/dev/null && echo available || echo missing; }';

export function parseOvsKernel(s: Section | undefined): OvsKernel {
  const v = (s?.out ?? '').trim();
  return v === 'loaded' || v === 'available' ? v : 'missing';
}

/** The arguments with `datapath_type: auto` made concrete for this host (any other value is kept as given). */
export function resolveDatapath<A extends { datapath_type: string }>(ovsKernel: OvsKernel, a: A): A {
  if (a.datapath_type !== 'auto') return a;
  return { ...a, datapath_type: ovsKernel === 'missing' ? 'netdev' : 'system' };
}
