// tempfile: a fresh temporary file (0600) or directory (0700) on the host, as ansible.builtin.tempfile
// (ansible-core 2.14: state file|directory, path, prefix 'ansible.', suffix; result path; no check
// mode, so skipped under --check). Made by mktemp(1): Python's mkstemp/mkdtemp modes, 8 random
// characters between prefix and suffix, in `path` or else $TMPDIR or /tmp (as gettempdir).
import { z } from 'zod';
import { CommandError } from '../../errors.js';
import { quoteWord } from '../kit/shell-words.js';
import type { Module } from '../types.js';
import { tempfileDoc } from './doc.js';

const namePart = (what: string) => z.string().refine((s) => !/[/\0\n]/.test(s), { message: `expected a ${what} without '/' or a newline` });

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

/** The file's attributes AnsibleModule.add_path_info adds to a result with a path (uid, gid, owner, group, mode, size, state). */
const STAT = `stat -c '%u %g %U %G %a %s %F' -- "$p"`;

function pathInfo(path: string, line: string): Record<string, unknown> | undefined {
  const m = /^(\d+) (\d+) (\S+) (\S+) ([0-7]+) (\d+) (.+)$/.exec(line);
  if (!m) return undefined;
  const state = m[7] === 'directory' ? 'directory' : 'file';
  return { path, uid: Number(m[1]), gid: Number(m[2]), owner: m[3], group: m[4], mode: `0${m[5]!.padStart(3, '0')}`, size: Number(m[6]), state };
}

export const tempfileModule: Module<TempfileArgs> = {
  name: 'tempfile',
  doc: tempfileDoc,
  args: tempfileArgs,
  environment: 'irrelevant',
  skipsInCheck: true,
  async run(a, ctx) {
    const command = `p=$(${mktempCommand(a)}) && printf '%s\\n' "$p" && ${STAT}`;
    const r = await ctx.transport.exec(command, { become: ctx.become });
    // As tempfile.py's fail_json(msg=str(e)): mktemp's own message (Python's names the random path it tried).
    if (r.code !== 0 && r.stdout === '') return { changed: false, failed: true, msg: r.stderr.trim() || `mktemp failed (rc ${r.code})` };
    const [path = '', attrs = ''] = r.stdout.split('\n');
    const info = pathInfo(path, attrs);
    if (r.code !== 0 || path === '' || !info) throw new CommandError({ command, exitCode: r.code, stdout: r.stdout, stderr: r.stderr, host: ctx.host });
    return { changed: true, ...info };
  },
};
