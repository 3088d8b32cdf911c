// user's arguments: ansible-core 2.14 user.py's argument_spec for the generic Linux class (useradd,
// usermod, userdel, chage, ssh-keygen), with its aliases and defaults. Options of other platforms
// (login_class, hidden, profile, authorization, role) and of libuser (local) or SELinux (seuser) are
// not accepted: the schema is strict, so they fail by name instead of being ignored.
import { z } from 'zod';
import { isValidAccount } from '../../transports/write-script.js';
import { ansibleBool, ansibleInt, withAliases } from '../kit/ansible-args.js';
import { ansibleStrList } from '../kit/ansible-list.js';

const NAME_MSG = "expected a user name (letters, digits, '_', '-', not starting with '-', at most 32)";
const noControl = (what: string) => z.string().refine((v) => !/[\x00-\x1f\x7f]/.test(v), { message: `expected ${what} without control characters (a newline would break /etc/passwd)` });
const noColon = (what: string) => noControl(what).refine((v) => !v.includes(':'), { message: `expected ${what} without ':' (the field separator of /etc/passwd)` });
/** An absolute path as useradd takes it (no control characters, no ':'). */
const absPath = (what: string) => noColon(what).refine((v) => v.startsWith('/'), { message: `expected ${what} as an absolute path` });
const float = z.preprocess((v) => (typeof v === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(v) ? Number(v) : v), z.number({ invalid_type_error: 'expected a number (seconds since the epoch)' }).finite());

const userObject = z
  .object({
    name: z.string().refine(isValidAccount, { message: NAME_MSG }),
    state: z.enum(['present', 'absent']).default('present'),
    uid: ansibleInt.pipe(z.number().nonnegative()).optional(),
    non_unique: ansibleBool.default(false),
    group: z.union([z.string(), z.number().int().nonnegative().transform(String)]).refine(isValidAccount, { message: 'expected a group name or a numeric gid' }).optional(),
    groups: ansibleStrList.optional(),
    append: ansibleBool.default(false),
    comment: noColon('a comment').optional(),
    home: absPath('home').optional(),
    shell: noColon('a shell').optional(),
    password: noColon('a password hash').optional(),
    update_password: z.enum(['always', 'on_create']).default('always'),
    password_lock: ansibleBool.optional(),
    password_expire_max: ansibleInt.optional(),
    password_expire_min: ansibleInt.optional(),
    expires: float.optional(),
    create_home: ansibleBool.default(true),
    skeleton: absPath('skeleton').optional(),
    system: ansibleBool.default(false),
    move_home: ansibleBool.default(false),
    remove: ansibleBool.default(false),
    force: ansibleBool.default(false),
    umask: z.string().regex(/^[0-7]{3,4}$/, 'expected an octal umask such as 077').optional(),
    generate_ssh_key: ansibleBool.optional(),
    ssh_key_bits: ansibleInt.pipe(z.number().nonnegative()).default(0),
    ssh_key_type: z.string().regex(/^[a-z0-9-]+$/, 'expected a key type such as rsa, ecdsa or ed25519').default('rsa'),
    ssh_key_file: noControl('a key file').optional(),
    ssh_key_comment: noControl('a key comment').optional(),
  })
  .strict();

export const userArgs = withAliases(userObject, { name: ['user'], create_home: ['createhome'] });

export type UserArgs = z.infer<typeof userObject>;

/** The groups argument as user.py joins and splits it: ','.join, then the non-empty names, stripped. */
export function wantedGroups(a: UserArgs): string[] | undefined {
  if (a.groups === undefined) return undefined;
  const names = a.groups.join(',').split(',').filter((g) => g !== '').map((g) => g.trim());
  return [...new Set(names)];
}
