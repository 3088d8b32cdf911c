// hostwire's side of the commit-confirmed move: stage the files, start the transaction as a
// transient systemd unit (it survives our SSH session), then reach the host again (reconnecting
// when the old session hung or died), confirm, and wait for the host's verdict. Without our
// confirmation the host rolls itself back; a rollback is reported as a failure with the reason
// and the diagnostics the host saved.
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { HostwireError, TransportError } from '../../errors.js';
import { shellJoin } from '../../transports/quote.js';
import type { Transport } from '../../transports/transport.js';
import type { ModuleContext } from '../types.js';
import type { TxnChange } from './plan-uplink.js';
import { BOOT_UNIT, RUN_DIR, SCRIPT_PATH, STAGE_DIR, unitName } from './script/index.js';

export interface CommitOptions {
  timeoutSec: number;
  /** The host's limit on applying and checking (apply_timeout), before the window; 600 s when unset. */
  applySec?: number;
  confirm: boolean;
  /** Poll period (ms). */
  pollMs?: number;
}

export interface CommitResult {
  status: 'ok' | 'rolled-back';
  reason: string;
  /** Seconds from the start of the transaction to its end (host clock). */
  seconds: number;
  diagnostics?: string;
}

type Reconnectable = Transport & { reconnect?: () => Promise<void> };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pollScript(id: string, confirm: boolean): string {
  const r = `${RUN_DIR}/result-${id}`;
  return [
    `if [ -e ${r} ]; then echo @@result; cat ${r}`,
    `elif [ -e ${RUN_DIR}/waiting-${id} ]; then ${confirm ? `touch ${RUN_DIR}/confirm-${id}; echo @@confirmed` : 'echo @@waiting'}`,
    // The unit may finish between the tests above: look for its result again after asking systemd.
    `else s=$(systemctl is-active ${unitName(id)} 2>/dev/null); if [ -e ${r} ]; then echo @@result; cat ${r}; else echo @@pending; echo "$s"; fi; fi`,
  ].join('\n');
}

function diagScript(dir: string): string {
  const q = shellJoin([dir]);
  return `for f in ip.txt ovs-vsctl-show.txt; do echo "--- $f"; cat ${q}/$f 2>/dev/null; done; echo '--- journal'; tail -n 40 ${q}/journal.txt 2>/dev/null`;
}

const field = (text: string, k: string) => new RegExp(`^${k}=(.*)$`, 'm').exec(text)?.[1] ?? '';

/** The address our SSH session comes from, as the host sees it ('' for a local run); become would drop it. */
async function sshClientAddress(ctx: ModuleContext): Promise<string> {
  const r = await ctx.transport.exec('printf %s "${SSH_CONNECTION%% *}"', { timeoutMs: 10_000 });
  const ip = r.stdout.trim();
  return isIP(ip) ? ip : '';
}

/**
 * Empties the stage and records, before this run installs anything, what the files it is about to
 * write looked like (absent, or a copy) and whether the boot unit was enabled: a rolled-back first
 * move then leaves no script, unit or hint behind. Also the SSH client's address, which the host's
 * checks require to be reached through the bridge.
 */
export async function prepareStage(installs: string[], ctx: ModuleContext): Promise<void> {
  const lines = installs.map((p, i) => `if [ -e ${shellJoin([p])} ]; then cp -p -- ${shellJoin([p, `${STAGE_DIR}/orig/${i}`])}; fi && echo ${shellJoin([`${i} ${p}`])} >>${STAGE_DIR}/installed`);
  const cmd = [
    `rm -rf -- ${STAGE_DIR} && mkdir -p -- ${STAGE_DIR}/orig ${RUN_DIR} && chmod 0700 ${STAGE_DIR}`,
    ...lines,
    `if systemctl is-enabled -q ${BOOT_UNIT} 2>/dev/null; then echo 'enabled yes'; else echo 'enabled no'; fi >>${STAGE_DIR}/installed`,
    `printf '%s\\n' ${shellJoin([await sshClientAddress(ctx)])} >${STAGE_DIR}/ssh-client`,
  ].join(' && ');
  const r = await ctx.transport.exec(cmd, { become: ctx.become });
  if (r.code !== 0) throw new HostwireError('command-failed', `cannot prepare ${STAGE_DIR}: ${(r.stderr || r.stdout).trim()}`);
}

/** How long systemd gives the rollback of a transaction it stopped (on a loaded emulated VM it took over 90 s). */
const ROLLBACK_LIMIT_SEC = 600;

/**
 * Stage the transaction's files (prepareStage ran first) and start it; returns its id. The unit runs
 * applySec + timeoutSec at most (RuntimeMaxSec): a step that hangs (every wait in the script is bounded, but not
 * their sum, nor a command that blocks) is stopped with the rest of the unit, and its trap rolls back.
 */
export async function startTransaction(changes: TxnChange[], ctx: ModuleContext, timeoutSec: number, applySec = 600): Promise<string> {
  const id = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const t = ctx.transport;
  for (const c of changes) {
    const { bridge, env, prev, nm } = c.txn;
    if (env) await t.writeFile(`${STAGE_DIR}/${bridge}.env`, env, { mode: '0644', become: ctx.become });
    if (prev) await t.writeFile(`${STAGE_DIR}/${bridge}.prev`, prev, { mode: '0644', become: ctx.become });
    if (nm) await t.writeFile(`${STAGE_DIR}/${bridge}.nm`, nm, { mode: '0700', become: ctx.become });
  }
  const actions = changes.map((c) => `${c.txn.verb}:${c.txn.bridge}`);
  const limit = applySec + timeoutSec;
  const cmd = shellJoin(['systemd-run', '--quiet', '--collect', `--unit=${unitName(id)}`, '--description=hostwire configure_ovs commit-confirmed move',
    `--property=RuntimeMaxSec=${limit}`, `--property=TimeoutStopSec=${ROLLBACK_LIMIT_SEC}`, `--setenv=TXN_LIMIT=${limit}`,
    SCRIPT_PATH, 'txn', id, String(timeoutSec), ...actions]);
  const r = await t.exec(cmd, { become: ctx.become, timeoutMs: 20_000 });
  if (r.code !== 0) throw new HostwireError('command-failed', `cannot start the transient unit ${unitName(id)}: ${(r.stderr || r.stdout).trim()}`);
  return id;
}

/**
 * How long one poll may take before the session counts as hanging: 3 s, or a quarter of the host's
 * ansible_timeout when that is longer (at most 20 s). Emulated lab VMs (ansible_timeout 60) under load
 * answer an exec in 5-30 s: with 3 s every poll "hung" and the move was never confirmed.
 */
export function pollTimeoutMs(ansibleTimeout: unknown): number {
  const seconds = Number(ansibleTimeout);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(20_000, Math.max(3000, (seconds * 1000) / 4)) : 3000;
}


/** The host's connect timeout (ansible_timeout, as the SSH transport uses it; 10 s when unset), at most 60 s. */
export function connectTimeoutMs(ansibleTimeout: unknown): number {
  const seconds = Number(ansibleTimeout);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(60_000, seconds * 1000) : 10_000;
}

/** Confirm (unless told not to) and wait for the host's verdict, reconnecting as needed. */
export async function awaitTransaction(id: string, ctx: ModuleContext, o: CommitOptions): Promise<CommitResult> {
  const t = ctx.transport as Reconnectable;
  // The host decides within timeout of its window opening (+ rollback time); past that it is really lost. The
  // window opens once the host has applied and checked: while the host answers that its transaction still
  // runs (an emulated VM under load took minutes to apply, and to roll back), the deadline moves with it, up
  // to APPLY_LIMIT_MS more; only a host that stops answering runs into it.
  const windowMs = (o.timeoutSec + 90) * 1000;
  // A host that still answers may take its apply limit before the window and the rollback's after it.
  const hardStop = Date.now() + windowMs + ((o.applySec ?? 600) + ROLLBACK_LIMIT_SEC) * 1000;
  let deadline = Date.now() + windowMs;
  let lastError = '';
  let lastSeen = '';
  let dead = false;
  const pollMs = pollTimeoutMs(ctx.vars?.ansible_timeout);
  while (Date.now() < deadline) {
    try {
      let fresh = false;
      if (dead && t.reconnect) { await t.reconnect(); fresh = true; }
      // A session the move left hanging must not hold us for long: pollMs, then reconnect. A session just
      // made is not a leftover: it gets the connect timeout (on a loaded emulated VM the first command of a
      // new session took longer than pollMs, so every poll reconnected again and none ever got the verdict).
      const limit = fresh ? Math.max(pollMs, connectTimeoutMs(ctx.vars?.ansible_timeout)) : pollMs;
      const r = await Promise.race([
        t.exec(pollScript(id, o.confirm), { become: ctx.become, timeoutMs: limit }),
        sleep(limit + 1000).then(() => ({ code: 124, stdout: '', stderr: '' })),
      ]);
      if (r.code === 124) throw new TransportError(`${ctx.host}: the session hangs`, ctx.host);
      dead = false;
      const out = r.stdout;
      lastSeen = out.split('\n').slice(0, 2).join(' ').trim();
      if (out.startsWith('@@result')) {
        const status = field(out, 'status') === 'ok' ? 'ok' : 'rolled-back';
        const seconds = Number(field(out, 'ended')) - Number(field(out, 'started'));
        const res: CommitResult = { status, reason: field(out, 'reason'), seconds: Math.round(seconds * 10) / 10 };
        if (status !== 'ok') res.diagnostics = (await t.exec(diagScript(field(out, 'diag')), { become: ctx.become, timeoutMs: 10_000 })).stdout;
        return res;
      }
      // A host that answers with its transaction still running (applying, waiting, or rolling back after the
      // window - which took over 90 s on a loaded emulated VM; "deactivating": systemd stopped it at its limit and
      // its trap rolls back) is followed up to the hard stop.
      const live = out.startsWith('@@waiting') || out.startsWith('@@confirmed') || (out.startsWith('@@pending') && /^(active|activating|deactivating)$/m.test(out));
      if (live) deadline = Math.min(hardStop, Math.max(deadline, Date.now() + windowMs));
      if (out.startsWith('@@pending') && !/^(active|activating|deactivating)$/m.test(out)) {
        const j = await t.exec(`journalctl -u ${unitName(id)} --no-pager -o cat | tail -n 40`, { become: ctx.become });
        throw new HostwireError('command-failed', `the transaction ${unitName(id)} ended without a result:\n${j.stdout}`);
      }
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      lastError = e.message;
      dead = true;
    }
    await sleep(o.pollMs ?? 300);
  }
  if (!lastError) throw new TransportError(`${ctx.host}: no verdict from the host in time (its last answer: ${lastSeen || 'none'}); the host rolls itself back after ${o.timeoutSec} s without confirmation`, ctx.host);
  throw new TransportError(`${ctx.host}: unreachable since the move (${lastError}); the host rolls itself back after ${o.timeoutSec} s without confirmation`, ctx.host);
}
