import type { ModuleDoc } from '../types.js';

export const userDoc: ModuleDoc = {
  description:
    'A local user account, as ansible.builtin.user on Linux (ansible-core 2.14\'s generic class): useradd, usermod, userdel ' +
    'and chage with the options user.py passes, in its order, each value quoted and `--` before the name; the account is read ' +
    'with getent (passwd, shadow, group) in the play\'s batched read. A missing home is made from the skeleton; ' +
    'generate_ssh_key runs ssh-keygen once (an existing key is kept, with user.py\'s warning, unless force). The result has ' +
    'user.py\'s keys (name, state, changed, uid, group, comment, home, shell, groups, system/create_home on creation, ' +
    'append/move_home on change, force/remove on removal, password as NOT_LOGGING_PASSWORD, ssh_fingerprint/ssh_key_file/' +
    'ssh_public_key, stdout/stderr of the account command). --check predicts (a user to add or remove answers only ' +
    'changed, as user.py). Differences: -G lists the groups in the order given (user.py uses a set\'s order); a home whose ' +
    'parent is missing gets the parent made (umask 022) and useradd -m makes the home, where user.py copies the skeleton ' +
    'itself (so useradd\'s "home directory already exists" warning is not in stderr); an ssh key is generated with -q; local, seuser, login_class, hidden, profile, authorization, role and ' +
    'ssh_key_passphrase are refused by name.',
  args: {
    name: 'The user\'s name.',
    state: 'present or absent.',
    uid: 'The user\'s id (usermod -u when it differs).',
    non_unique: 'Allow a uid another user has (-o).',
    group: 'The primary group, by name or gid; it must exist.',
    groups: 'Supplementary groups (a list or comma-separated); each must exist. An empty list removes all unless append.',
    append: 'Add groups to the current ones instead of setting exactly them (usermod -a).',
    comment: 'The GECOS field.',
    home: 'The home directory.',
    shell: 'The login shell.',
    password: 'The password as a crypt(3) hash (never shown: the result says NOT_LOGGING_PASSWORD).',
    update_password: 'always: set password when the hash differs; on_create: only when adding the user.',
    password_lock: 'Lock (usermod -L) or unlock (-U) the password.',
    password_expire_max: 'Maximum days between password changes (chage -M).',
    password_expire_min: 'Minimum days between password changes (chage -m).',
    expires: 'Account expiry in seconds since the epoch (the UTC day counts); a negative value removes it.',
    create_home: 'Create the home (useradd -m; a missing one of an existing user is made from the skeleton).',
    skeleton: 'The skeleton directory (useradd -k).',
    system: 'Create a system account (useradd -r); no effect on an existing user.',
    move_home: 'With a new home, move the old one there (usermod -m).',
    remove: 'With state absent, remove the home and mail spool (userdel -r).',
    force: 'With state absent, userdel -f; with generate_ssh_key, overwrite an existing key.',
    umask: 'The home\'s umask when useradd creates it (-K UMASK=).',
    generate_ssh_key: 'Generate an ssh key for the user when it has none.',
    ssh_key_bits: 'Key size (ssh-keygen -b); 0 leaves ssh-keygen\'s default.',
    ssh_key_type: 'Key type (ssh-keygen -t).',
    ssh_key_file: 'Key file, absolute or relative to the home (default .ssh/id_TYPE).',
    ssh_key_comment: 'Key comment (default "ansible-generated on HOSTNAME").',
  },
  example: '- user:\n    name: deploy\n    groups: [adm]\n    append: true\n    shell: /bin/bash\n    generate_ssh_key: true\n    ssh_key_type: ed25519',
  check: 'full',
  diff: 'none',
};
