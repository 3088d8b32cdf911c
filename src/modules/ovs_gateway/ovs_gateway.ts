// ovs_gateway: the gateway bridge br-ex (configure-ovs). mode=no_uplink is an ordinary idempotent
// bridge; mode=uplink moves the node's NIC (MAC, MTU, addresses or DHCP, routes) onto br-ex (and
// /etc/ovnk/extra_bridge's NIC onto br-ex1) through one commit-confirmed transaction on the host.
import { HostwireError } from '../../engine/errors.js';
import type { Change, Module, ModuleContext } from '../types.js';
import { applyChanges } from '../../engine/runner/run-task.js';
import { shellJoin } from '../../transports/quote.js';
import { ovsGatewayArgs, type OvsGatewayArgs } from './args.js';
import { awaitTransaction, prepareStage, startTransaction, unitName } from './commit.js';
import { parseGatewayProbe, type GatewayState } from './parse.js';
import { planNoUplink } from './plan-no-uplink.js';
import { isTxnChange, planUplink } from './plan-uplink.js';
import { GATEWAY_PROBE } from './probe.js';

async function applyGateway(changes: Change[], a: OvsGatewayArgs, ctx: ModuleContext): Promise<void> {
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
  const id = await startTransaction(txn, ctx, a.confirm_timeout);
  const r = await awaitTransaction(id, ctx, { timeoutSec: a.confirm_timeout, confirm: a.confirm });
  if (r.status !== 'ok') {
    throw new HostwireError('command-failed',
      `${unitName(id)} rolled back after ${r.seconds} s: ${r.reason}\n${r.diagnostics ?? ''}`.trimEnd(), { host: ctx.host });
  }
}

export const ovsGatewayModule: Module<OvsGatewayArgs, GatewayState> = {
  name: 'ovs_gateway',
  args: ovsGatewayArgs,
  probe: () => ({ command: GATEWAY_PROBE, parse: (o) => parseGatewayProbe(o.stdout) }),
  plan: (s, a) => (a.mode === 'no_uplink' ? planNoUplink(s, a) : planUplink(s, a)),
  apply: applyGateway,
};
