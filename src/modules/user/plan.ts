// user's pure plan, command for command as ansible-core 2.14 user.py's generic class builds them:
// create_user_useradd, modify_user_usermod, remove_user_userdel, the missing-home step, ssh_key_gen
// and set_password_expire. Every value is one quoted word and option parsing ends with `--`.
import { HostwireError } from '../../errors.js';
import type { Change } from '../types.js';
import { quoteWord } from '../kit/shell-words.js';
import { wantedGroups, type UserArgs } from './args.js';
import type { GroupEntry, UserState } from './probe.js';

const q = quoteWord;
const fail = (msg: string): never => {
  throw new HostwireError('command-failed', msg);
};

/** grp.getgrgid(int(group)) first, then getgrnam, as user.py's group_info. */
export function findGroup(groups: GroupEntry[], name: string): GroupEntry | undefined {
  return (/^\d+$/.test(name) ? groups.find((g) => g.gid === Number(name)) : undefined) ?? groups.find((g) => g.name === name);
}

const requireGroup = (st: UserState, name: string): GroupEntry => findGroup(st.groups, name) ?? fail(`Group ${name} does not exist`);

/** time.strftime('%Y-%m-%d', time.gmtime(expires)); '' for a time before the epoch (never expires). */
export const expiryDate = (expires: number): string => (expires < 0 ? '' : new Date(Math.floor(expires) * 1000).toISOString().slice(0, 10));

function useradd(st: UserState, a: UserArgs): string {
  const w: string[] = [];
  if (a.uid !== undefined) w.push('-u', String(a.uid), ...(a.non_unique ? ['-o'] : []));
  if (a.group !== undefined) {
    requireGroup(st, a.group);
    w.push('-g', q(a.group));
  }
  else if (findGroup(st.groups, a.name)) w.push('-N');
  const groups = wantedGroups(a) ?? [];
  groups.forEach((g) => requireGroup(st, g));
  if (groups.length) w.push('-G', q(groups.join(',')));
  if (a.comment !== undefined) w.push('-c', q(a.comment));
  if (a.home !== undefined) w.push('-d', q(a.home));
  if (a.shell !== undefined) w.push('-s', q(a.shell));
  if (a.expires !== undefined) w.push('-e', q(expiryDate(a.expires)));
  if (a.password !== undefined) w.push('-p', q(a.password_lock ? `!${a.password}` : a.password));
  if (a.create_home) {
    w.push('-m');
    if (a.skeleton !== undefined) w.push('-k', q(a.skeleton));
    if (a.umask !== undefined) w.push('-K', q(`UMASK=${a.umask}`));
  } else w.push('-M');
  if (a.system) w.push('-r');
  return ['useradd', ...w, '--', q(a.name)].join(' ');
}

/** usermod's words for the supplementary groups (user.py: -a only when a wanted group is missing). */
function groupWords(st: UserState, a: UserArgs): string[] {
  const wanted = wantedGroups(a);
  if (wanted === undefined) return [];
  const current = st.groups.filter((g) => g.members.includes(a.name)).map((g) => g.name);
  if (a.groups!.join(',') === '') return current.length && !a.append ? ['-G', "''"] : [];
  wanted.forEach((g) => requireGroup(st, g));
  const missing = wanted.filter((g) => !current.includes(g));
  const extra = current.filter((g) => !wanted.includes(g));
  if (a.append) return missing.length ? ['-a', '-G', q(wanted.join(','))] : [];
  return missing.length || extra.length ? ['-G', q(wanted.join(','))] : [];
}

function expiryWords(st: UserState, a: UserArgs): string[] {
  if (a.expires === undefined) return [];
  const current = st.shadow?.expire ?? -1;
  if (a.expires < 0) return current >= 0 ? ['-e', "''"] : [];
  const same = current >= 0 && expiryDate(current * 86400) === expiryDate(a.expires);
  return same ? [] : ['-e', q(expiryDate(a.expires))];
}

function usermod(st: UserState, a: UserArgs): string | undefined {
  const pw = st.passwd!;
  const hash = pw.password.length <= 1 ? st.shadow?.hash ?? '' : pw.password;
  let w: string[] = [];
  if (a.uid !== undefined && pw.uid !== a.uid) w.push('-u', String(a.uid), ...(a.non_unique ? ['-o'] : []));
  if (a.group !== undefined) {
    const g = requireGroup(st, a.group);
    if (pw.gid !== g.gid) w.push('-g', String(g.gid));
  }
  w.push(...groupWords(st, a));
  if (a.comment !== undefined && pw.comment !== a.comment) w.push('-c', q(a.comment));
  if (a.home !== undefined && pw.home !== a.home) w.push('-d', q(a.home), ...(a.move_home ? ['-m'] : []));
  if (a.shell !== undefined && pw.shell !== a.shell) w.push('-s', q(a.shell));
  w.push(...expiryWords(st, a));
  if (a.password_lock === true && !hash.startsWith('!')) w.push('-L');
  else if (a.password_lock === false && hash.startsWith('!')) w.push('-U');
  if (a.update_password === 'always' && a.password !== undefined && hash.replace(/^!+/, '') !== a.password.replace(/^!+/, '')) {
    w = w.filter((x) => x !== '-L' && x !== '-U');
    w.push('-p', q(a.password_lock ? `!${a.password}` : a.password));
  }
  return w.length ? ['usermod', ...w, '--', q(a.name)].join(' ') : undefined;
}

/** The one useradd/usermod/userdel run (its stdout/stderr are the result's), or none. */
export function planAccount(st: UserState, a: UserArgs): Change[] {
  const n = q(a.name);
  if (a.state === 'absent') {
    const opts = `${a.force ? ' -f' : ''}${a.remove ? ' -r' : ''}`;
    return st.passwd ? [{ summary: `remove user ${a.name}`, run: [`userdel${opts} -- ${n}`] }] : [];
  }
  if (!st.passwd) {
    const parent = a.home !== undefined && a.create_home && !st.homeParentExists ? [`(umask 022 && mkdir -p -- ${q(dirOf(a.home))})`] : [];
    return [{ summary: `add user ${a.name}`, run: [...parent, useradd(st, a)] }];
  }
  const cmd = usermod(st, a);
  return cmd ? [{ summary: `modify user ${a.name}`, run: [cmd] }] : [];
}

export const dirOf = (p: string): string => p.replace(/\/[^/]*\/*$/, '') || '/';
