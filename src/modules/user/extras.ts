// What user.py does after the account command while the user exists: create a missing home
// (create_homedir + chown_homedir), generate the ssh key (ssh_key_gen) and set the password ages
// (set_password_expire). Pure: each is a Change, or nothing when the host already has it.
import type { Change } from '../types.js';
import { quoteWord } from '../kit/shell-words.js';
import type { UserArgs } from './args.js';
import { dirOf } from './plan.js';
import type { UserState } from './probe.js';

const q = quoteWord;

/** create_homedir: the skeleton copied (links kept) or an empty folder, chmod per login.defs UMASK, chown -R. */
function homeChange(st: UserState, a: UserArgs): Change[] {
  if (!a.create_home || st.homeExists || !st.passwd) return [];
  if (a.move_home && st.passwd.home !== st.home) return []; // usermod -d -m moves the old one there
  const home = q(st.home);
  const skel = q(a.skeleton ?? '/etc/skel');
  const mode = st.loginUmask !== undefined ? (0o777 & ~parseInt(st.loginUmask, 8)).toString(8).padStart(4, '0') : undefined;
  return [{
    summary: `create home ${st.home} of ${a.name}`,
    run: [
      `(umask 022 && mkdir -p -- ${q(dirOf(st.home))})`,
      `if [ -d ${skel} ]; then cp -R -P -- ${skel} ${home}; else mkdir -- ${home}; fi`,
      ...(mode ? [`chmod ${mode} -- ${home}`] : []),
      `chown -R -h -- ${st.passwd.uid}:${st.passwd.gid} ${home}`,
    ],
  }];
}

export interface KeyPlan {
  changes: Change[];
  warnings: string[];
}

/** ssh_key_gen: nothing (with user.py's warning) when a key file exists and force is off. */
export function keyPlan(st: UserState, a: UserArgs): KeyPlan {
  const key = st.key;
  if (!a.generate_ssh_key || !key) return { changes: [], warnings: [] };
  const warnings: string[] = [];
  for (const [has, what, file] of [[key.priv, 'private', key.path], [key.pub, 'public', `${key.path}.pub`]] as const) {
    if (!has) continue;
    if (!a.force) return { changes: [], warnings: [...warnings, `Found existing ssh key ${what} file "${file}", no force, so skipping ssh-keygen generation`] };
    warnings.push(`Overwriting existing ssh key ${what} file "${file}"`);
  }
  const k = q(key.path);
  const owner = q(`${a.name}:`);
  const comment = a.ssh_key_comment ?? `ansible-generated on ${key.hostname}`;
  const bits = a.ssh_key_bits > 0 ? ` -b ${a.ssh_key_bits}` : '';
  const dir = q(dirOf(key.path));
  return {
    warnings,
    changes: [{
      summary: `generate the ${a.ssh_key_type} ssh key ${key.path} of ${a.name}`,
      run: [
        `if [ ! -e ${dir} ]; then mkdir -m 0700 -- ${dir} && chown -- ${owner} ${dir}; fi`,
        `rm -f -- ${k} ${q(`${key.path}.pub`)}`,
        `ssh-keygen -q -t ${q(a.ssh_key_type)}${bits} -C ${q(comment)} -f ${k} -N ''`,
        `chown -- ${owner} ${k} ${q(`${key.path}.pub`)}`,
      ],
    }],
  };
}

/** set_password_expire: chage -m/-M for what differs from the shadow entry (none without one). */
function ageChange(st: UserState, a: UserArgs): Change[] {
  if (!st.shadow && st.passwd) return [];
  const min = a.password_expire_min !== undefined && a.password_expire_min !== st.shadow?.min;
  const max = a.password_expire_max !== undefined && a.password_expire_max !== st.shadow?.max;
  if (!min && !max) return [];
  const words = [...(min ? ['-m', String(a.password_expire_min)] : []), ...(max ? ['-M', String(a.password_expire_max)] : [])];
  return [{ summary: `set password ages of ${a.name}`, run: [`chage ${words.join(' ')} -- ${q(a.name)}`] }];
}

/** The steps after the account command, for a user that is present at the end. */
export function planExtras(st: UserState, a: UserArgs): Change[] {
  if (a.state === 'absent') return [];
  return [...homeChange(st, a), ...keyPlan(st, a).changes, ...ageChange(st, a)];
}
