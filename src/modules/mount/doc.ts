import type { ModuleDoc } from '../types.js';

export const mountDoc: ModuleDoc = {
  description:
    'Controls mount points and their fstab entries as ansible.posix.mount does on Linux: mounted (fstab entry set, mounted, ' +
    'remounted when the entry changed), present / absent / absent_from_fstab (the entry; absent also unmounts and removes the ' +
    'directory), unmounted, remounted (always a change) and ephemeral (mounted without fstab). fstab is edited line by line as ' +
    'the module edits it and written atomically (a temporary file renamed over it, its mode and owner kept), never truncated; ' +
    '\\, space and & in a field are written \\134, \\040, \\046 as the module writes them, control characters are refused. A mount ' +
    'that fails puts the old fstab back. Not built: backup, Solaris/BSD forms.',
  args: {
    path: 'The mount point (none for a swap entry).',
    src: 'The device, label (LABEL=...), or source path; required by mounted, present and ephemeral.',
    fstype: 'The filesystem type; required by mounted, present and ephemeral.',
    opts: 'Mount options (default defaults).',
    dump: 'fstab dump field (default 0).',
    passno: 'fstab pass number (default 0).',
    state: 'mounted, present, absent, absent_from_fstab, unmounted, remounted or ephemeral.',
    fstab: 'The fstab file (default /etc/fstab); another file is passed to mount with -T.',
    boot: 'false adds noauto to opts (unless opts holds defaults), as the module does.',
  },
  example: '- mount:\n    path: /srv/cache\n    src: tmpfs\n    fstype: tmpfs\n    opts: size=64m\n    state: mounted',
  check: 'full',
  diff: 'full',
};
