// tempfile: a fresh temporary file (0600) or directory (0700) on the host, as ansible.builtin.tempfile
// (ansible-core 2.14: state file|directory, path, prefix 'ansible.', suffix; result path; no check
// mode, so skipped under --check). Made by mktemp(1): Python's mkstemp/mkdtemp modes, 8 random
// characters between prefix and suffix, in `path` or else $TMPDIR or /tmp (as gettempdir).
import { z } from 'zod';
import { CommandError } from '../../errors.js';
import { quoteWord } from '../kit/shell-words.js';
import type { Module } from '../types.js';
import { tempfileDoc } from './doc.js';

const namePart = (what: string) => z.string().refine((s) => !s.includes('/') && !s.includes('\0'), { message: `expected a ${what} without '/'` });

const tempfileArgs = z
  .object({
    state: z.enum(['file', 'directory']).default('file'),
    path: z.string().min(1).optional(),
    prefix: namePart('prefix').default('ansible.'),
    suffix: namePart('suffix').default(''),
  })
  .strict();

export type TempfileArgs = z.infer<typeof tempfileArgs>;

/** The mktemp command line: every value one quoted word, the template after `--`. */
export function mktempCommand(a: TempfileArgs): string {
  const dir = a.path === undefined ? '"${TMPDIR:-/tmp}"' : quoteWord(a.path);
  const suffix = a.suffix === '' ? '' : ` --suffix=${quoteWord(a.suffix)}`;
  return `mktemp${a.state === 'directory' ? ' -d' : ''} -p ${dir}${suffix} -- ${quoteWord(`${a.prefix}XXXXXXXX`)}`;
}

export const tempfileModule: Module<TempfileArgs> = {
  name: 'tempfile',
  doc: tempfileDoc,
  args: tempfileArgs,
  environment: 'irrelevant',
  skipsInCheck: true,
  async run(a, ctx) {
    const command = mktempCommand(a);
    const r = await ctx.transport.exec(command, { become: ctx.become });
    const path = r.stdout.replace(/\n$/, '');
    if (r.code !== 0 || path === '' || path.includes('\n')) throw new CommandError({ command, exitCode: r.code, stdout: r.stdout, stderr: r.stderr, host: ctx.host });
    return { changed: true, path };
  },
};
