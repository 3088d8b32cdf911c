// ansible.posix.mount's arguments (Linux). A field with a control character is refused (fstab is split
// on whitespace: a tab or newline would forge fields or lines); \, space and & are escaped as the
// module escapes them (\134, \040, \046).
import { z } from 'zod';
import { ansibleBool, withAliases } from '../kit/ansible-args.js';

const field = (what: string) =>
  z.union([z.string(), z.number().transform(String)]).pipe(
    z.string().min(1, `expected ${what}, not an empty string`).refine((v) => !/[\0-\x1f\x7f]/.test(v), `expected ${what} without control characters (tab, newline...): fstab fields are split on whitespace`),
  );

export const STATES = ['absent', 'absent_from_fstab', 'mounted', 'present', 'unmounted', 'remounted', 'ephemeral'] as const;

export const mountArgs = withAliases(
  z
    .object({
      path: field('a mount point path (none for swap)'),
      src: field('a device, label or source path').optional(),
      fstype: field('a filesystem type').optional(),
      opts: field('mount options (comma-separated)').optional(),
      dump: field('a dump number').default('0'),
      passno: field('a pass number').default('0'),
      state: z.enum(STATES, { errorMap: () => ({ message: `expected one of ${STATES.join(', ')}` }) }),
      fstab: field('the fstab file path').refine((p) => p.startsWith('/'), 'expected an absolute fstab path').optional(),
      boot: ansibleBool.default(true),
    })
    .strict()
    .superRefine((a, ctx) => {
      // AnsibleModule's required_if message.
      if (a.state !== 'mounted' && a.state !== 'present' && a.state !== 'ephemeral') return;
      const missing = (['src', 'fstype'] as const).filter((k) => a[k] === undefined);
      if (missing.length) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `state is ${a.state} but all of the following are missing: ${missing.join(', ')}` });
    }),
  { path: ['name'] },
);

export type MountArgs = z.infer<typeof mountArgs>;

/** The module's `args`: defaults filled (opts defaults, fstab /etc/fstab), boot: false as noauto. */
export interface MountEntry {
  name: string;
  src?: string;
  fstype?: string;
  opts: string;
  dump: string;
  passno: string;
  fstab: string;
  /** fstab given and not /etc/fstab: mount reads it with -T. */
  altFstab: boolean;
}

export function mountEntry(a: MountArgs): MountEntry {
  let opts = a.opts ?? 'defaults';
  const list = opts.split(',');
  if (!a.boot && !list.includes('noauto') && !list.includes('defaults')) opts = [...list, 'noauto'].join(',');
  const fstab = a.fstab ?? '/etc/fstab';
  return { name: a.path, src: a.src, fstype: a.fstype, opts, dump: a.dump, passno: a.passno, fstab, altFstab: fstab !== '/etc/fstab' };
}
