// The ansible.cfg settings hostwire honours: section, key, ANSIBLE_* variable and type as in Ansible's
// base.yml. A value from the file names file:line when it is wrong; a relative path from the file is
// relative to the file's directory, one from the environment to the working directory (as Ansible
// resolves type path/pathlist/pathspec).
import path from 'node:path';
import { homedir } from 'node:os';
import { BadInputError } from '../errors.js';

type Kind = 'string' | 'path' | 'pathlist' | 'pathspec' | 'integer' | 'boolean' | 'seconds' | 'ssh-persist' | { choices: string[] };

interface SettingDef {
  section: string;
  key: string;
  env: string;
  kind: Kind;
}

export const SETTINGS = {
  inventory: { section: 'defaults', key: 'inventory', env: 'ANSIBLE_INVENTORY', kind: 'pathlist' },
  rolesPath: { section: 'defaults', key: 'roles_path', env: 'ANSIBLE_ROLES_PATH', kind: 'pathspec' },
  remoteUser: { section: 'defaults', key: 'remote_user', env: 'ANSIBLE_REMOTE_USER', kind: 'string' },
  privateKeyFile: { section: 'defaults', key: 'private_key_file', env: 'ANSIBLE_PRIVATE_KEY_FILE', kind: 'path' },
  forks: { section: 'defaults', key: 'forks', env: 'ANSIBLE_FORKS', kind: 'integer' },
  hostKeyChecking: { section: 'defaults', key: 'host_key_checking', env: 'ANSIBLE_HOST_KEY_CHECKING', kind: 'boolean' },
  timeout: { section: 'defaults', key: 'timeout', env: 'ANSIBLE_TIMEOUT', kind: 'integer' },
  vaultPasswordFile: { section: 'defaults', key: 'vault_password_file', env: 'ANSIBLE_VAULT_PASSWORD_FILE', kind: 'path' },
  gathering: { section: 'defaults', key: 'gathering', env: 'ANSIBLE_GATHERING', kind: { choices: ['implicit', 'explicit', 'smart'] } },
  become: { section: 'privilege_escalation', key: 'become', env: 'ANSIBLE_BECOME', kind: 'boolean' },
  becomeMethod: { section: 'privilege_escalation', key: 'become_method', env: 'ANSIBLE_BECOME_METHOD', kind: { choices: ['sudo'] } },
  becomeUser: { section: 'privilege_escalation', key: 'become_user', env: 'ANSIBLE_BECOME_USER', kind: 'string' },
  becomeAskPass: { section: 'privilege_escalation', key: 'become_ask_pass', env: 'ANSIBLE_BECOME_ASK_PASS', kind: 'boolean' },
  // The default callback's option (plugins/doc_fragments/default_callback.py): set_stats' stats after the recap.
  showCustomStats: { section: 'defaults', key: 'show_custom_stats', env: 'ANSIBLE_SHOW_CUSTOM_STATS', kind: 'boolean' },
  // hostwire's own settings: [hostwire] in ansible.cfg, HOSTWIRE_* in the environment.
  hostKeyPolicy: { section: 'hostwire', key: 'host_key_checking', env: 'HOSTWIRE_HOST_KEY_CHECKING', kind: { choices: ['strict', 'accept-new', 'off'] } },
  lockTimeout: { section: 'hostwire', key: 'lock_timeout', env: 'HOSTWIRE_LOCK_TIMEOUT', kind: 'seconds' },
  // Of ssh_args hostwire reads ControlMaster/ControlPersist only: how long its connection keeper keeps a host's connection.
  connectionPersist: { section: 'ssh_connection', key: 'ssh_args', env: 'ANSIBLE_SSH_ARGS', kind: 'ssh-persist' },
} as const satisfies Record<string, SettingDef>;

export type SettingName = keyof typeof SETTINGS;

/** Where a raw value came from: an ansible.cfg line or an environment variable. */
export interface ValueOrigin {
  file?: string;
  line?: number;
  env?: string;
  /** Directory a relative path is resolved against. */
  baseDir: string;
}

const TRUE = ['y', 'yes', 'on', '1', 'true', 't'];
const FALSE = ['n', 'no', 'off', '0', 'false', 'f'];

function describe(def: SettingDef, o: ValueOrigin): string {
  return o.env ? `environment variable ${o.env}` : `${o.file}:${o.line}: [${def.section}] ${def.key}`;
}

function expected(kind: Kind): string {
  if (typeof kind === 'object') return `one of ${kind.choices.join(', ')}`;
  if (kind === 'ssh-persist') return 'ssh options whose -o ControlPersist is a time (60s, 10m), yes or no';
  return {
    string: 'a string', path: 'a file path', pathlist: 'comma-separated paths', pathspec: 'colon-separated paths',
    integer: 'a whole number >= 1', boolean: 'a boolean (yes/no, true/false, on/off, 1/0)', seconds: 'a number of seconds above 0',
  }[kind];
}

/** os.path.expandvars: $NAME and ${NAME} replaced when set, left as written when not. */
export function expandVars(p: string, env: NodeJS.ProcessEnv = process.env): string {
  return p.replace(/\$(\w+)|\$\{([^}]*)\}/g, (whole, a: string | undefined, b: string | undefined) => env[(a ?? b)!] ?? whole);
}

/** unfrackpath (utils/path.py) without following links: $VARS, then ~, expanded; relative to baseDir. */
export function resolvePath(p: string, baseDir: string): string {
  const expanded = expandVars(p);
  const home = expanded === '~' || expanded.startsWith('~/') ? path.join(homedir(), expanded.slice(1)) : expanded;
  return path.resolve(baseDir, home);
}

/** DEFAULT_ROLES_PATH's default in base.yml: {{ ANSIBLE_HOME }}/roles, /usr/share/ansible/roles, /etc/ansible/roles. */
export function defaultRolesPath(env: NodeJS.ProcessEnv = process.env): string[] {
  const ansibleHome = env.ANSIBLE_HOME ? resolvePath(env.ANSIBLE_HOME, process.cwd()) : path.join(homedir(), '.ansible');
  return [path.join(ansibleHome, 'roles'), '/usr/share/ansible/roles', '/etc/ansible/roles'];
}

export type SettingValue = string | string[] | number | boolean;

/** Converts one raw value to its setting's type, or throws naming where it came from and what was expected. */
export function coerceSetting(name: SettingName, raw: string, origin: ValueOrigin): SettingValue {
  const def: SettingDef = SETTINGS[name];
  const kind = def.kind;
  const fail = (): never => {
    throw new BadInputError(`${describe(def, origin)} is '${raw}'; expected ${expected(kind)}`);
  };
  const value = raw.trim();
  // A value goes on to ssh, sudo and file names: no control characters (a newline would split it).
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw new BadInputError(`${describe(def, origin)} holds a control character; expected ${expected(kind)}`);
  }
  if (typeof kind === 'object') return kind.choices.includes(value) ? value : fail();
  switch (kind) {
    case 'string':
      return value === '' ? fail() : value;
    case 'path':
      return value === '' ? fail() : resolvePath(value, origin.baseDir);
    case 'pathlist':
    case 'pathspec': {
      const parts = value.split(kind === 'pathlist' ? ',' : ':').map((s) => s.trim()).filter(Boolean);
      return parts.length ? parts.map((p) => resolvePath(p, origin.baseDir)) : fail();
    }
    case 'integer':
      return /^\d+$/.test(value) && Number(value) >= 1 ? Number(value) : fail();
    case 'seconds':
      return /^\d+(\.\d+)?$/.test(value) && Number(value) > 0 ? Number(value) : fail();
    case 'boolean': {
      const v = value.toLowerCase();
      return TRUE.includes(v) ? true : FALSE.includes(v) ? false : fail();
    }
    case 'ssh-persist':
      return persistSeconds(value) ?? fail();
  }
}

/** `-o Key=Value` / `-o Key Value` of ssh's command line, the last one given (case-insensitive key). */
function sshOption(args: string, key: string): string | undefined {
  const re = new RegExp(`(?:^|\\s)-o\\s*["']?${key}(?:\\s*=\\s*|\\s+)([^\\s"']+)`, 'gi');
  let last: string | undefined;
  for (const m of args.matchAll(re)) last = m[1];
  return last;
}

/** An OpenSSH time (60, 60s, 10m, 1h30m) in seconds. */
function sshTime(v: string): number | undefined {
  if (/^\d+$/.test(v)) return Number(v);
  const parts = [...v.matchAll(/(\d+)([smhdw])/gi)];
  if (!parts.length || parts.map((m) => m[0]).join('') !== v) return undefined;
  const unit: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };
  return parts.reduce((n, m) => n + Number(m[1]) * unit[m[2]!.toLowerCase()]!, 0);
}

/** Longest idle time hostwire's keeper keeps a connection: OpenSSH's "yes"/0 (forever) means this. */
export const PERSIST_FOREVER_SEC = 3600;

/**
 * Seconds to keep connections from ssh_args (0: not kept), undefined when ControlPersist is not a time.
 * Kept only with ControlMaster auto/yes/autoask, as ssh keeps a master only then.
 */
export function persistSeconds(args: string): number | undefined {
  const master = sshOption(args, 'ControlMaster')?.toLowerCase();
  const persist = sshOption(args, 'ControlPersist')?.toLowerCase();
  if (persist === undefined || persist === 'no' || !['auto', 'yes', 'autoask', 'ask'].includes(master ?? '')) return 0;
  if (persist === 'yes') return PERSIST_FOREVER_SEC;
  const t = sshTime(persist);
  return t === undefined ? undefined : t === 0 ? PERSIST_FOREVER_SEC : Math.min(t, PERSIST_FOREVER_SEC);
}
