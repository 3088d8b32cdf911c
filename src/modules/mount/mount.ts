// mount: ansible.posix.mount natively (Linux). Read in the batched read (probe.ts), planned purely
// (plan.ts); applied in order. When the mount fails, the old fstab is put back and the directory it
// created removed, as the module does (ansible/ansible#59183), and the message is the module's.
import { CommandError, HostwireError } from '../../errors.js';
import { shellJoin } from '../../transports/quote.js';
import { applyChanges } from '../kit/apply.js';
import type { Change, Module, ModuleContext } from '../types.js';
import { mountArgs, mountEntry, type MountArgs } from './args.js';
import { mountDoc } from './doc.js';
import { planMount } from './plan.js';
import { mountProbe, type MountState } from './probe.js';

const FAILED: Record<MountArgs['state'], string> = {
  mounted: 'Error mounting',
  ephemeral: 'Error mounting',
  unmounted: 'Error unmounting',
  absent: 'Error unmounting',
  absent_from_fstab: 'Error writing the fstab of',
  present: 'Error writing the fstab of',
  remounted: 'Error remounting',
};

async function undo(changes: Change[], a: MountArgs, ctx: ModuleContext): Promise<void> {
  if (a.state !== 'mounted' && a.state !== 'ephemeral') return;
  const written = changes.find((c) => c.write !== undefined);
  if (written?.write && written.before !== undefined) {
    const w = written.write;
    await ctx.transport.writeFile(w.path, written.before, { mode: w.mode, owner: w.owner, group: w.group, become: ctx.become }).catch(() => undefined);
  }
  if (changes.some((c) => c.summary.startsWith('create the directory'))) await ctx.transport.exec(shellJoin(['rmdir', '--', a.path]), { become: ctx.become }).catch(() => undefined);
}

export const mountModule: Module<MountArgs, MountState> = {
  name: 'mount',
  doc: mountDoc,
  args: mountArgs,
  probe: (a) => mountProbe(mountEntry(a)),
  plan: (st, a) => planMount(st, mountEntry(a), a.state),
  async apply(changes, a, ctx) {
    try {
      return await applyChanges(changes, ctx);
    } catch (e) {
      await undo(changes, a, ctx);
      if (e instanceof CommandError) throw new HostwireError('command-failed', `${FAILED[a.state]} ${a.path}: ${e.stdout}${e.stderr}`, { host: ctx.host });
      throw e;
    }
  },
};
