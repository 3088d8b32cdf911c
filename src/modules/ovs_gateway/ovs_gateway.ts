// ovs_gateway: the gateway bridge br-ex (configure-ovs). mode=no_uplink is an ordinary idempotent
// bridge; mode=uplink moves the node's NIC (MAC, MTU, addresses or DHCP, routes) onto br-ex (and
// /etc/ovnk/extra_bridge's NIC onto br-ex1) through one commit-confirmed transaction on the host.
import { HostwireError } from '../../errors.js';
import type { Change, Module, ModuleContext } from '../types.js';
import { applyChanges } from '../kit/apply.js';
import { shellJoin } from '../../transports/quote.js';
import { ovsGatewayArgs, type OvsGatewayArgs } from './args.js';
import { awaitTransaction, prepareStage, startTransaction } from './commit.js';
import { parseGatewayProbe, type GatewayState } from './parse.js';
import { planNoUplink } from './plan-no-uplink.js';
import { isPendingChange } from './plan-pending.js';
import { isTxnChange, planUplink } from './plan-uplink.js';
import { settlePending } from './settle-pending.js';
import { GATEWAY_PROBE } from './probe.js';
import { RUN_DIR, unitName } from './script/index.js';
import { notePending } from '../pending.js';
import { ovsGatewayDoc } from './doc.js';

/** A pending transaction of an earlier run is settled first; after a wait, the host is read and planned again. */
async function applyGateway(changes: Change[], a: OvsGatewayArgs, ctx: ModuleContext, settled = false): Promise<void> {
  const pending = changes.filter(isPendingChange);
  if (pending.length) {
    const outcomes = await settlePending(pending, a.confirm_timeout, ctx);
    if (pending.every((c) => c.pending.action === 'confirm')) return applyGateway(changes.filter((c) => !isPendingChange(c)), a, ctx, true);
    const probe = await ctx.transport.exec(GATEWAY_PROBE, { become: ctx.become, timeoutMs: 60_000 });
    const next = planUplink(parseGatewayProbe(probe.stdout), a);
    if (settled || next.some(isPendingChange)) {
      throw new HostwireError('command-failed', `another transaction is pending again after waiting (${outcomes.join('; ')}): is a second run moving the uplink?`, { host: ctx.host });
    }
    return applyGatewayAfter(next, a, ctx, outcomes);
  }
  const txn = changes.filter(isTxnChange);
  const dirs = [...new Set(changes.flatMap((c) => (c.write ? [c.write.path.replace(/\/[^/]+$/, '')] : [])))];
  if (dirs.length) {
    const r = await ctx.transport.exec(`mkdir -p ${shellJoin(dirs)}`, { become: ctx.become });
    if (r.code !== 0) throw new HostwireError('command-failed', `cannot create ${dirs.join(' ')}: ${r.stderr.trim()}`, { host: ctx.host });
  }
  const plain = changes.filter((c) => !isTxnChange(c));
  if (txn.length) await prepareStage(plain.flatMap((c) => (c.write ? [c.write.path] : [])), ctx);
  await applyChanges(plain, ctx);
  if (txn.length === 0) return;
  const id = await startTransaction(txn, ctx, a.confirm_timeout, a.apply_timeout);
  // Known to the CLI while pending: a second Ctrl-C quits at once but says what the host will do.
  const unregister = notePending({
    host: ctx.host, what: `the uplink move ${unitName(id)}`, action: 'rolls itself back',
    at: new Date(Date.now() + a.confirm_timeout * 1000),
    check: [`systemctl status ${unitName(id)}`, `cat ${RUN_DIR}/result-${id}`, `journalctl -u ${unitName(id)}`],
  });
  const r = await awaitTransaction(id, ctx, { timeoutSec: a.confirm_timeout, applySec: a.apply_timeout, confirm: a.confirm }).finally(unregister);
  if (r.status !== 'ok') {
    throw new HostwireError('command-failed',
      `${unitName(id)} rolled back after ${r.seconds} s: ${r.reason}\n${r.diagnostics ?? ''}`.trimEnd(), { host: ctx.host });
  }
}

async function applyGatewayAfter(changes: Change[], a: OvsGatewayArgs, ctx: ModuleContext, outcomes: string[]): Promise<void> {
  try {
    await applyGateway(changes, a, ctx, true);
  } catch (e) {
    if (e instanceof HostwireError) e.message = `after waiting for the pending transaction (${outcomes.join('; ')}): ${e.message}`;
    throw e;
  }
}

export const ovsGatewayModule: Module<OvsGatewayArgs, GatewayState> = {
  name: 'ovs_gateway',
  doc: ovsGatewayDoc,
  args: ovsGatewayArgs,
  probe: () => ({ command: GATEWAY_PROBE, parse: (o) => parseGatewayProbe(o.stdout) }),
  plan: (s, a) => (a.mode === 'no_uplink' ? planNoUplink(s, a) : planUplink(s, a)),
  apply: (changes, a, ctx) => applyGateway(changes, a, ctx),
};
