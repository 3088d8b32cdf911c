// replace: every match of a Python pattern in a file (ansible.builtin.replace, ansible-core 2.14: its
// arguments, aliases and defaults, after/before sections, its messages). The file is read in the
// play's batched read, the plan is pure, the write goes through the verified install; --check
// predicts and --diff shows the whole file before and after, as Ansible does.
// Differences: `validate` is refused (not run), a symlink at `path` is refused (Ansible edits its
// target), and a file that is not valid text in `encoding` is refused rather than rewritten.
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import type { Change, Module } from '../types.js';
import { groupArg, ownerArg } from '../kit/account.js';
import { assertRegularFile, planContent } from '../kit/content-plan.js';
import { modeArg } from '../kit/mode.js';
import type { FileStat } from '../kit/file-stat.js';
import { statProbe } from '../kit/stat-probe.js';
import { ansibleBool, withAliases } from '../kit/ansible-args.js';
import { pyRegexArg } from '../kit/py-regex.js';
import { replaceText } from './edit.js';
import { replaceDoc } from './doc.js';

/** Python codec names Node decodes the same way, byte for byte. */
const ENCODINGS: Record<string, BufferEncoding> = { 'utf-8': 'utf8', utf8: 'utf8', 'latin-1': 'latin1', latin1: 'latin1', 'iso-8859-1': 'latin1', ascii: 'latin1' };

const replaceArgs = withAliases(
  z
    .object({
      path: z.string().min(1),
      regexp: pyRegexArg,
      replace: z.string().default(''),
      after: z.string().optional(),
      before: z.string().optional(),
      backup: ansibleBool.default(false),
      validate: z.string().optional(),
      encoding: z.string().default('utf-8').refine((e) => ENCODINGS[e.toLowerCase()] !== undefined, { message: `expected one of ${Object.keys(ENCODINGS).join(', ')}` }),
      mode: modeArg.optional(),
      owner: ownerArg.optional(),
      group: groupArg.optional(),
    })
    .strict()
    .refine((a) => a.validate === undefined, { message: "'validate' is not supported by hostwire's replace (the file would be installed unchecked); check the file in a later task", path: ['validate'] }),
  { path: ['dest', 'destfile', 'name'] },
);

export type ReplaceArgs = z.infer<typeof replaceArgs>;

/** The file's text in `encoding`; refused when decoding would not give the same bytes back. */
function decode(content: Buffer, encoding: string, path: string): { text: string; codec: BufferEncoding } {
  const codec = ENCODINGS[encoding.toLowerCase()]!;
  const text = content.toString(codec);
  const ascii = encoding.toLowerCase() === 'ascii';
  if ((ascii && /[^\x00-\x7f]/.test(text)) || !Buffer.from(text, codec).equals(content)) {
    throw new HostwireError('bad-input', `${path} is not valid ${encoding} text: replace would change bytes it did not match (give its encoding)`);
  }
  return { text, codec };
}

export function planReplace(st: FileStat, a: ReplaceArgs): Change[] {
  if (st.exists && st.type === 'directory') throw new HostwireError('bad-input', `Path ${a.path} is a directory !`);
  if (!st.exists) throw new HostwireError('bad-input', `Path ${a.path} does not exist !`);
  assertRegularFile(a.path, st);
  const { text, codec } = decode(st.content!, a.encoding, a.path);
  const outcome = replaceText(text, a, a.path);
  // replace.py exits there, before it looks at mode/owner/group.
  if (outcome.kind === 'no-section') return [];
  const content = outcome.kind === 'replaced' ? Buffer.from(outcome.text, codec) : st.content!;
  const changes = planContent(st, { path: a.path, content, mode: a.mode, owner: a.owner, group: a.group, backup: a.backup });
  // Ansible's message for the rewrite: 'N replacements made'.
  return changes.map((c) => (c.write && outcome.kind === 'replaced' ? { ...c, summary: `${outcome.count} replacements made in ${a.path}` } : c));
}

export const replaceModule: Module<ReplaceArgs, FileStat> = {
  name: 'replace',
  doc: replaceDoc,
  args: replaceArgs,
  environment: 'irrelevant',
  probe: (a) => statProbe(a.path, true, false, a.mode),
  plan: (st, a) => planReplace(st, a),
};
