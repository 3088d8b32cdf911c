// Cutting and restoring a VM host NIC's cable (bond failover drills): through qemu's QMP socket, so the
// guest sees carrier go and come as with a real switch port.
import { BadInputError } from '../errors.js';
import { requireHost } from './lab-ops.js';
import { hostRunning } from './health.js';
import { setVmLink } from './vm/qmp.js';

export async function labSetLink(host: string, nic: string, state: string, options: { name?: string } = {}): Promise<void> {
  if (state !== 'up' && state !== 'down') throw new BadInputError(`link state "${state}": expected up or down`);
  const { state: lab, host: h } = await requireHost(host, options.name);
  if (h.kind !== 'vm' || !h.vm) throw new BadInputError(`${h.name} is not a VM host: only a VM host's NIC cables can be cut`);
  const names = ['eth0', ...(h.vm.nics ?? []).map((n) => n.name)];
  const index = names.indexOf(nic);
  if (index < 0) throw new BadInputError(`${h.name} has no NIC "${nic}" (it has ${names.join(', ')})`);
  if (!(await hostRunning(lab, h))) throw new BadInputError(`${h.name} is not running`);
  await setVmLink(h, index === 0 ? 'net0' : h.vm.nics![index - 1]!.id, state === 'up');
}
