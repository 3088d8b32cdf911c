// raw: the command line as written, through the host's shell (ansible.builtin.raw, ansible-core
// 2.14's raw action): `executable` runs it as `<executable> -c '<command>'`; always changed; a
// non-zero rc fails with 'non-zero return code'; skipped under --check (it cannot predict).
// Unlike Ansible over ssh (which allocates a tty, so stderr lands in stdout with \r\n line ends and
// "Shared connection ... closed." in stderr), stdout and stderr come back apart and unaltered.
import { z } from 'zod';
import { quoteWord } from '../kit/shell-words.js';
import type { Module } from '../types.js';
import { pythonSplitLines } from '../kit/python-lines.js';
import { rawDoc } from './doc.js';

const rawArgs = z
  .object({
    _raw_params: z.string().min(1, 'expected the command to run'),
    executable: z.string().min(1).optional(),
  })
  .strict();

export type RawArgs = z.infer<typeof rawArgs>;

export const rawCommandLine = (a: RawArgs) => (a.executable === undefined ? a._raw_params : `${quoteWord(a.executable)} -c ${quoteWord(a._raw_params)}`);

export const rawModule: Module<RawArgs> = {
  name: 'raw',
  doc: rawDoc,
  args: rawArgs,
  skipsInCheck: true,
  // The raw action's own skip: `skipped` and nothing else (no AnsibleModule message).
  checkSkipped: () => ({ changed: false, skipped: true }),
  // Ansible's raw action ignores `environment:` (with a warning): so does hostwire.
  environment: 'irrelevant',
  async run(a, ctx) {
    const r = await ctx.transport.exec(rawCommandLine(a), { become: ctx.become });
    const result = { changed: true, rc: r.code, stdout: r.stdout, stdout_lines: pythonSplitLines(r.stdout), stderr: r.stderr, stderr_lines: pythonSplitLines(r.stderr) };
    return r.code !== 0 ? { ...result, failed: true, msg: 'non-zero return code' } : result;
  },
};
