// user's read, one shell snippet in the play's batched read: the passwd and shadow entries (getent,
// NSS, as pwd.getpwnam / getspnam read them), the group database (existence of group/groups and the
// user's supplementary memberships, as grp.getgrall), useradd's default home base, the home the task
// ends with (does it exist, its parent), and with generate_ssh_key the key files, fingerprint and the
// host name (ssh_key_comment's default). Host output is data: parsed, never evaluated.
import { ProbeParseError } from '../../errors.js';
import { need, readSections, section } from '../../probe/sections.js';
import type { Probe, ProbeOutput } from '../../probe/types.js';
import { quoteWord } from '../kit/shell-words.js';
import type { UserArgs } from './args.js';

export interface PasswdEntry {
  /** The passwd field ('x' when the hash is in shadow). */
  password: string;
  uid: number;
  gid: number;
  comment: string;
  home: string;
  shell: string;
}

export interface ShadowEntry {
  hash: string;
  /** -1 when the field is empty, as getspnam gives it. */
  min: number;
  max: number;
  /** Days since the epoch; -1 when the field is empty (never). */
  expire: number;
}

export interface GroupEntry {
  name: string;
  gid: number;
  members: string[];
}

export interface UserState {
  passwd?: PasswdEntry;
  shadow?: ShadowEntry;
  groups: GroupEntry[];
  /** The home the task ends with: `home`, else the current one, else useradd's default base + name. */
  home: string;
  homeExists: boolean;
  homeParentExists: boolean;
  /** UMASK of /etc/login.defs (user.py's create_homedir mode), when set. */
  loginUmask?: string;
  key?: { path: string; priv: boolean; pub: boolean; fingerprint: string; publicKey?: string; hostname: string };
}

/** The key file as user.py's get_ssh_key_path: absolute as given, else under the home. */
export const keyFileOf = (a: UserArgs) => a.ssh_key_file ?? `.ssh/id_${a.ssh_key_type}`;

export function userProbe(a: UserArgs): Probe<UserState> {
  const n = quoteWord(a.name);
  const keyFile = keyFileOf(a);
  const key = keyFile.startsWith('/') ? quoteWord(keyFile) : `"$home"/${quoteWord(keyFile)}`;
  const lines = [
    `pw=$(getent passwd -- ${n})`,
    section('passwd', 'printf "%s\\n" "$pw"'),
    section('shadow', `getent shadow -- ${n}`),
    section('group', 'getent group'),
    `home=${a.home !== undefined ? quoteWord(a.home) : `$(printf '%s' "$pw" | cut -d: -f6)`}`,
    `[ -n "$home" ] || home="$(useradd -D 2>/dev/null | sed -n 's/^HOME=//p')"/${n}`,
    section('home', 'printf "%s\\n" "$home"; [ -e "$home" ] && echo exists; [ -d "$(dirname -- "$home")" ] && echo parent; true'),
    section('umask', "sed -n 's/^UMASK[[:space:]]\\{1,\\}\\([0-9]\\{1,\\}\\)$/\\1/p' /etc/login.defs"),
  ];
  if (a.generate_ssh_key) {
    lines.push(
      `k=${key}`,
      section('key', 'printf "%s\\n" "$k"; [ -e "$k" ] && echo priv; [ -e "$k.pub" ] && echo pub; true'),
      section('fingerprint', '[ -e "$k" ] && ssh-keygen -l -f "$k"'),
      section('pubkey', '[ -e "$k.pub" ] && head -c 65536 -- "$k.pub"'),
      section('hostname', 'hostname'),
    );
  }
  return { command: lines.join('\n'), parse: parseUser };
}

const int = (v: string | undefined): number | undefined => (v !== undefined && /^-?\d+$/.test(v) ? Number(v) : undefined);

export function parsePasswd(line: string, raw: string): PasswdEntry | undefined {
  if (line === '') return undefined;
  const f = line.split(':');
  const uid = int(f[2]);
  const gid = int(f[3]);
  if (f.length !== 7 || uid === undefined || gid === undefined) throw new ProbeParseError(`unexpected passwd entry: ${JSON.stringify(line)}`, raw);
  return { password: f[1]!, uid, gid, comment: f[4]!, home: f[5]!, shell: f[6]! };
}

function parseShadow(out: string, rc: number): ShadowEntry | undefined {
  const f = out.split('\n')[0]!.split(':');
  if (rc !== 0 || f.length < 9) return undefined;
  return { hash: f[1]!, min: int(f[3]) ?? -1, max: int(f[4]) ?? -1, expire: int(f[7]) ?? -1 };
}

function parseGroups(out: string): GroupEntry[] {
  return out.split('\n').flatMap((line) => {
    const f = line.split(':');
    const gid = int(f[2]);
    return f.length === 4 && gid !== undefined ? [{ name: f[0]!, gid, members: f[3] === '' ? [] : f[3]!.split(',') }] : [];
  });
}

export function parseUser(out: ProbeOutput): UserState {
  const s = readSections(out.stdout);
  const [home = '', ...flags] = need(s, 'home', out.stdout).out.split('\n');
  const umask = need(s, 'umask', out.stdout).out.split('\n')[0];
  const shadow = need(s, 'shadow', out.stdout);
  const state: UserState = {
    passwd: parsePasswd(need(s, 'passwd', out.stdout).out.split('\n')[0]!, out.stdout),
    shadow: parseShadow(shadow.out, shadow.rc),
    groups: parseGroups(need(s, 'group', out.stdout).out),
    home,
    homeExists: flags.includes('exists'),
    homeParentExists: flags.includes('parent'),
    ...(umask ? { loginUmask: umask } : {}),
  };
  const key = s.get('key');
  if (key) {
    const [path = '', ...has] = key.out.split('\n');
    const fp = need(s, 'fingerprint', out.stdout);
    const pub = need(s, 'pubkey', out.stdout);
    state.key = {
      path,
      priv: has.includes('priv'),
      pub: has.includes('pub'),
      fingerprint: fp.out.trim(),
      ...(pub.rc === 0 ? { publicKey: pub.out.trim() } : {}),
      hostname: need(s, 'hostname', out.stdout).out.trim(),
    };
  }
  return state;
}
