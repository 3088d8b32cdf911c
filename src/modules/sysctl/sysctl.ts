// sysctl: a kernel parameter at runtime (/proc/sys) and persistently in a sysctl.d file.
// sysctl_file defaults to /etc/sysctl.d/99-hostwire.conf (hostwire's own file, not sysctl.conf).
// Runtime and file are compared apart and only the side that differs is set; the runtime value is
// written straight to /proc/sys, so procps is not needed. reload: no leaves the runtime alone (unless
// sysctl_set); ignoreerrors: a key the kernel lacks only goes to the file, as `sysctl -e -p` skips it.
import { z } from 'zod';
import { ansibleBool, withAliases } from '../kit/ansible-args.js';
import { HostwireError } from '../../errors.js';
import { quoteWord } from '../kit/shell-words.js';
import type { Change, Module } from '../types.js';
import { assertRegularFile, planContent } from '../kit/content-plan.js';
import { fileRead } from '../../probe/kinds/files.js';
import { oneLine } from '../kit/line-text.js';
import { editSysctlFile, normValue, parseSysctl, procPath, sysctlNameProblem, type SysctlState } from './parse.js';
import { sysctlDoc } from './doc.js';

export const DEFAULT_SYSCTL_FILE = '/etc/sysctl.d/99-hostwire.conf';

const sysctlArgs = z
  .object({
    name: z.string().superRefine((s, ctx) => {
      const p = sysctlNameProblem(s);
      if (p) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a sysctl key like net.ipv4.ip_forward (this one ${p})` });
    }),
    value: z.union([z.string(), z.number(), z.boolean().transform((b) => (b ? '1' : '0'))]).transform(String).superRefine(oneLine('a sysctl value')).optional(),
    state: z.enum(['present', 'absent']).default('present'),
    sysctl_file: z.string().min(1).default(DEFAULT_SYSCTL_FILE),
    reload: ansibleBool.default(true),
    /** Ansible's -w of the key when the runtime differs; hostwire sets the runtime with reload too. */
    sysctl_set: ansibleBool.default(false),
    /** A key the kernel does not have is not an error: only the file is written (sysctl -e). */
    ignoreerrors: ansibleBool.default(false),
  })
  .strict()
  .refine((a) => a.state === 'absent' || a.value !== undefined, { message: "state 'present' requires 'value'", path: ['value'] });

export type SysctlArgs = z.infer<typeof sysctlArgs>;

export function planSysctl(st: SysctlState, a: SysctlArgs, host = 'the host'): Change[] {
  if (a.state === 'present' && st.runtime === undefined && !a.ignoreerrors) {
    throw new HostwireError('bad-input', `sysctl key ${a.name} does not exist on ${host} (${procPath(a.name)} is missing)`);
  }
  assertRegularFile(a.sysctl_file, st.file);
  const changes: Change[] = [];
  const setRuntime = (a.reload || a.sysctl_set) && st.runtime !== undefined;
  if (a.state === 'present' && setRuntime && normValue(a.value!) !== st.runtime) {
    changes.push({
      summary: `set ${a.name}=${a.value} at runtime`,
      before: `${a.name} = ${st.runtime}\n`,
      after: `${a.name} = ${normValue(a.value!)}\n`,
      run: [`printf '%s\\n' ${quoteWord(a.value!)} > ${quoteWord(procPath(a.name))}`],
    });
  }
  const old = st.file.content?.toString('utf8') ?? '';
  const next = editSysctlFile(old, a.name, a.state === 'present' ? a.value : undefined);
  if (next !== old) changes.push(...planContent(st.file, { path: a.sysctl_file, content: next, createParent: true }));
  return changes;
}

export const sysctlModule: Module<SysctlArgs, SysctlState> = {
  name: 'sysctl',
  doc: sysctlDoc,
  args: withAliases(sysctlArgs, { name: ['key'], value: ['val'] }),
  probe: (a) => ({
    // Read with the shell's own `read` (no fork; inline in the batch): lines joined by spaces, as tr did.
    ...fileRead({
      path: a.sysctl_file,
      content: true,
      before: `k=${quoteWord(procPath(a.name))}; if [ -f "$k" ]; then v=; while IFS= read -r l || [ -n "$l" ]; do v="$v$l "; done < "$k"; printf 'runtime:%s\\n' "$v"; else echo runtime_missing; fi`,
    }),
    parse: parseSysctl,
  }),
  plan: (st, a, ctx) => planSysctl(st, a, ctx.host),
};
