// Apply changes strictly in order (a backup before the write that replaces the file, a mkdir
// before a file inside it): consecutive commands share one exec, each write streams atomically.
import { CommandError } from '../../errors.js';
import type { Change, ModuleContext } from '../types.js';

export async function applyInOrder(changes: Change[], ctx: ModuleContext): Promise<void> {
  let pending: string[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    const commands = pending;
    pending = [];
    const r = await ctx.transport.exec(['set -e', ...commands].join('\n'), { become: ctx.become });
    if (r.code !== 0) throw new CommandError({ command: commands.join('; '), exitCode: r.code, stdout: r.stdout, stderr: r.stderr, host: ctx.host });
  };
  for (const c of changes) {
    if (c.write) {
      await flush();
      const w = c.write;
      await ctx.transport.writeFile(w.path, w.content, { mode: w.mode, owner: w.owner, group: w.group, become: ctx.become });
    }
    pending.push(...c.run);
  }
  await flush();
}
