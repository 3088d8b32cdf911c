// user: a local account (ansible.builtin.user, ansible-core 2.14's generic Linux class). Read in the
// play's batched read (probe.ts), planned purely (plan.ts: useradd/usermod/userdel as user.py builds
// them; extras.ts: missing home, ssh key, password ages), then the result user.py returns - its keys,
// and its check-mode answers (a user to add or remove: just changed; one to modify: its current info).
import type { Change, Module, ModuleContext, ModuleResult } from '../types.js';
import { applyChanges } from '../kit/apply.js';
import { userArgs, type UserArgs } from './args.js';
import { userDoc } from './doc.js';
import { keyPlan, planExtras } from './extras.js';
import { planAccount } from './plan.js';
import { parseUser, userProbe, type UserState } from './probe.js';

export function planUser(st: UserState, a: UserArgs): Change[] {
  return [...planAccount(st, a), ...planExtras(st, a)];
}

interface Ran {
  rc: number;
  stdout: string;
  stderr: string;
}

async function runAccount(changes: Change[], ctx: ModuleContext): Promise<Ran | undefined> {
  if (!changes.length) return undefined;
  const r = await ctx.transport.exec(['set -e', ...changes[0]!.run].join('\n'), { become: ctx.become });
  return { rc: r.code, stdout: r.stdout, stderr: r.stderr };
}

/** main()'s keys while the user is present: its passwd entry, groups as given, the ssh key's. */
function presentInfo(st: UserState, a: UserArgs, warnings: string[]): Record<string, unknown> {
  const pw = st.passwd;
  if (!pw) return { failed: true, msg: `failed to look up user name: ${a.name}` };
  const out: Record<string, unknown> = { uid: pw.uid, group: pw.gid, comment: pw.comment, home: pw.home, shell: pw.shell };
  if (a.groups !== undefined) out.groups = a.groups.join(',');
  if (a.generate_ssh_key && st.key) {
    Object.assign(out, { ssh_fingerprint: st.key.fingerprint, ssh_key_file: st.key.path, ssh_public_key: st.key.publicKey ?? null });
  }
  if (warnings.length) out.warnings = warnings;
  return out;
}

function checkResult(st: UserState, a: UserArgs, changes: Change[]): ModuleResult {
  if (a.state === 'absent') return st.passwd ? { changed: true } : { name: a.name, state: a.state, changed: false };
  if (!st.passwd) return { changed: true };
  const head = { name: a.name, state: a.state, append: a.append, move_home: a.move_home, ...(a.password !== undefined ? { password: 'NOT_LOGGING_PASSWORD' } : {}) };
  return { ...head, changed: changes.length > 0, ...presentInfo(st, a, keyPlan(st, a).warnings) };
}

// user.py's __init__ warns of this whatever the state (the text as 2.14 prints it).
const APPEND_ALONE = "'append' is set, but no 'groups' are specified. Use 'groups' for appending new groups.This will change to an error in Ansible 2.14.";

async function runUser(a: UserArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const result = await runUserTask(a, ctx);
  if (!a.append || a.groups !== undefined) return result;
  return { ...result, warnings: [APPEND_ALONE, ...((result.warnings as string[] | undefined) ?? [])] };
}

async function runUserTask(a: UserArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const probe = userProbe(a);
  const st = await ctx.probe(probe);
  let account: Change[];
  try {
    account = planAccount(st, a);
  } catch (e) {
    return { changed: false, failed: true, msg: (e as Error).message };
  }
  if (ctx.check) return checkResult(st, a, [...account, ...planExtras(st, a)]);
  const ran = await runAccount(account, ctx);
  if (ran && ran.rc !== 0) return { changed: false, failed: true, name: a.name, msg: ran.stderr, rc: ran.rc };
  const result: ModuleResult = { name: a.name, state: a.state, changed: ran !== undefined };
  if (a.state === 'absent') Object.assign(result, ran ? { force: a.force, remove: a.remove } : {});
  else if (!st.passwd) Object.assign(result, { system: a.system, create_home: a.create_home });
  else Object.assign(result, { append: a.append, move_home: a.move_home });
  if (a.state === 'present' && a.password !== undefined) result.password = 'NOT_LOGGING_PASSWORD';
  if (ran?.stdout) result.stdout = ran.stdout;
  if (ran?.stderr) result.stderr = ran.stderr;
  if (a.state === 'absent') return result;
  return finishPresent(a, ctx, result, ran ? await reread(probe.command, ctx) : st);
}

async function reread(command: string, ctx: ModuleContext): Promise<UserState> {
  const r = await ctx.transport.exec(command, { become: ctx.become });
  return parseUser({ stdout: r.stdout, rc: r.code });
}

/** The home, key and password-age steps planned on the user as it is now, then its info after them. */
async function finishPresent(a: UserArgs, ctx: ModuleContext, result: ModuleResult, now: UserState): Promise<ModuleResult> {
  const extras = planExtras(now, a);
  try {
    await applyChanges(extras, ctx);
  } catch (e) {
    return { changed: false, failed: true, name: a.name, msg: (e as { stderr?: string }).stderr ?? (e as Error).message };
  }
  const after = extras.length ? await reread(userProbe(a).command, ctx) : now;
  return { ...result, changed: result.changed || extras.length > 0, ...presentInfo(after, a, keyPlan(now, a).warnings) };
}

export const userModule: Module<UserArgs, UserState> = {
  name: 'user',
  doc: userDoc,
  args: userArgs,
  environment: 'irrelevant',
  probe: userProbe,
  plan: planUser,
  run: runUser,
  readsAhead: (a) => [userProbe(a)],
};
