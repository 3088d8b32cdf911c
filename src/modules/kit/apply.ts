// The one apply of plan/apply modules: changes run strictly in the order planned (a backup before
// the write that replaces the file, a mkdir before a file inside it, a daemon-reload after its unit
// file). Consecutive commands share one exec; each write streams atomically (a verified install).
// The runner uses it when a module has no apply of its own; modules with their own apply call it.
import { CommandError } from '../../errors.js';
import type { Change, ModuleContext } from '../types.js';

/** Returns what the changes report (Change.reports: a backup's name as backup_file). */
export async function applyChanges(changes: Change[], ctx: Pick<ModuleContext, 'host' | 'transport' | 'become'>): Promise<Record<string, unknown>> {
  const reported: Record<string, unknown> = {};
  let pending: string[] = [];
  const flush = async () => {
    if (pending.length === 0) return '';
    const commands = pending;
    pending = [];
    const r = await ctx.transport.exec(['set -e', ...commands].join('\n'), { become: ctx.become });
    if (r.code !== 0) throw new CommandError({ command: commands.join('; '), exitCode: r.code, stdout: r.stdout, stderr: r.stderr, host: ctx.host });
    return r.stdout;
  };
  for (const c of changes) {
    if (c.write) {
      await flush();
      const w = c.write;
      await ctx.transport.writeFile(w.path, w.content, { mode: w.mode, owner: w.owner, group: w.group, become: ctx.become, ...(w.validate !== undefined ? { validate: w.validate } : {}) });
    }
    if (c.reports === undefined) {
      pending.push(...c.run);
      continue;
    }
    // A reporting change runs in its own exec, so its output is its alone.
    await flush();
    pending.push(...c.run);
    reported[c.reports] = await flush();
  }
  await flush();
  return reported;
}
