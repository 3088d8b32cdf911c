// firewalld: one item (source, port, service, interface or masquerade) of one zone, enabled or
// disabled, at runtime and/or permanently - each read and changed on its own. Reads go over D-Bus;
// writes use firewall-cmd (firewall-offline-cmd for the permanent config when the daemon is stopped).
import { z } from 'zod';
import { CommandError, HostwireError } from '../../errors.js';
import { shellJoin, shellQuote } from '../../transports/quote.js';
import type { Change, Module, ModuleContext } from '../types.js';
import { conflictOf, isBindingConflict, parseFirewallError, parseZonesOf, zoneConflictError } from './conflict.js';
import type { ZoneItems } from './parse.js';
import { named, serviceNameProblem, sourceProblem, zoneNameProblem } from './names.js';
import { ifname } from '../kit/ifname.js';
import { firewallProbeCommand, readFirewall, type FirewallState } from './probe.js';
import { firewalldDoc } from './doc.js';

const items = ['source', 'port', 'service', 'interface', 'masquerade'] as const;

const firewalldArgs = z
  .object({
    zone: named('zone name', zoneNameProblem).default('public'),
    source: named('source', sourceProblem).optional(),
    port: z.string().regex(/^\d+(-\d+)?\/(tcp|udp|sctp|dccp)$/, 'expected a port like 8080/tcp or 8000-8010/udp').optional(),
    service: named('service name', serviceNameProblem).optional(),
    interface: ifname.optional(),
    masquerade: z.boolean().optional(),
    state: z.enum(['enabled', 'disabled']),
    permanent: z.boolean().default(false),
    immediate: z.boolean().default(false),
    offline: z.boolean().default(false),
  })
  .strict()
  .refine((a) => items.filter((k) => a[k] !== undefined).length === 1, { message: `expected exactly one of: ${items.join(', ')}` });

export type FirewalldArgs = z.infer<typeof firewalldArgs>;

type Item = { kind: (typeof items)[number]; value: string };

export function itemOf(a: FirewalldArgs): Item {
  const kind = items.find((k) => a[k] !== undefined)!;
  return { kind, value: kind === 'masquerade' ? 'masquerade' : String(a[kind]) };
}

function has(z: ZoneItems, it: Item): boolean {
  if (it.kind === 'masquerade') return z.masquerade;
  return ({ source: z.sources, port: z.ports, service: z.services, interface: z.interfaces })[it.kind].includes(it.value);
}

/** Argument words: `--add-source=X`, `--remove-masquerade`... (`--opt=value`: a value is never read as an option). */
function opWords(it: Item, enable: boolean): string[] {
  const op = `--${enable ? 'add' : 'remove'}-${it.kind}`;
  return it.kind === 'masquerade' ? [op] : [`${op}=${it.value}`];
}

export function planFirewall(s: FirewallState, a: FirewalldArgs): Change[] {
  const it = itemOf(a);
  const enable = a.state === 'enabled';
  const label = it.kind === 'masquerade' ? 'masquerade' : `${it.kind} ${it.value}`;
  const wantRuntime = !a.permanent || a.immediate;
  const changes: Change[] = [];
  // Removing an opening, or moving an interface/source into a zone, can cut off the session this run comes through.
  const disruptive = !enable ? `removes ${label} from zone ${a.zone}: connections relying on it (the SSH session too) may be cut` : it.kind === 'interface' || it.kind === 'source' ? `puts ${label} under zone ${a.zone}'s rules: the SSH session may be cut if it comes through it` : undefined;
  // Both sides are named in one message, whichever side the task is about to change.
  const conflict = (where: 'runtime' | 'permanent') => {
    const c = conflictOf(s.sourceZone, a.zone);
    if (it.kind === 'source' && enable && c?.[where]) throw zoneConflictError('source', it.value, a.zone, c);
  };
  if (a.permanent) {
    if (!s.running && !a.offline) throw new HostwireError('command-failed', `firewalld is not running: set offline: true to change the permanent config with firewall-offline-cmd, or start firewalld`);
    if (has(s.permanent, it) !== enable) {
      conflict('permanent');
      const tool = s.running ? ['firewall-cmd', '--permanent'] : ['firewall-offline-cmd'];
      changes.push({ summary: `${enable ? 'add' : 'remove'} ${label} ${enable ? 'to' : 'from'} zone ${a.zone} (permanent${s.running ? '' : ', offline'})`, before: `permanent ${label}: ${has(s.permanent, it) ? 'enabled' : 'disabled'}\n`, after: `permanent ${label}: ${a.state}\n`, run: [shellJoin([...tool, `--zone=${a.zone}`, ...opWords(it, enable)])], ...(disruptive ? { disruptive } : {}) });
    }
  }
  if (wantRuntime) {
    if (!s.running || !s.runtime) {
      if (!a.permanent) throw new HostwireError('command-failed', `firewalld is not running: a runtime change of ${label} is not applicable (use permanent: true with offline: true)`);
    } else if (has(s.runtime, it) !== enable) {
      conflict('runtime');
      changes.push({ summary: `${enable ? 'add' : 'remove'} ${label} ${enable ? 'to' : 'from'} zone ${a.zone} (runtime)`, before: `runtime ${label}: ${has(s.runtime, it) ? 'enabled' : 'disabled'}\n`, after: `runtime ${label}: ${a.state}\n`, run: [shellJoin(['firewall-cmd', `--zone=${a.zone}`, ...opWords(it, enable)])], ...(disruptive ? { disruptive } : {}) });
    }
  }
  return changes;
}

/** Runtime and permanent changes run in one exec, never a reload; a ZONE_CONFLICT the probe could not
 * foresee (an interface, a race) is re-read to name the zone that holds the item. */
async function applyFirewall(changes: Change[], a: FirewalldArgs, ctx: ModuleContext): Promise<void> {
  const commands = changes.flatMap((c) => c.run);
  if (commands.length === 0) return;
  const r = await ctx.transport.exec(['set -e', ...commands].join('\n'), { become: ctx.become });
  if (r.code === 0) return;
  const it = itemOf(a);
  if (!isBindingConflict(parseFirewallError(r.stderr)) || (it.kind !== 'source' && it.kind !== 'interface')) {
    throw new CommandError({ command: commands.join('; '), exitCode: r.code, stdout: r.stdout, stderr: r.stderr, host: ctx.host });
  }
  const q = shellQuote(`--get-zone-of-${it.kind}=${it.value}`);
  const z = await ctx.transport.exec(`firewall-cmd ${q}; echo "::rc $?"; firewall-cmd --permanent ${q}; echo "::rc $?"`, { become: ctx.become });
  throw zoneConflictError(it.kind, it.value, a.zone, conflictOf(parseZonesOf(z.stdout), a.zone));
}

export const firewalldModule: Module<FirewalldArgs, FirewallState> = {
  name: 'firewalld',
  doc: firewalldDoc,
  args: firewalldArgs,
  probe: (a) => ({ command: firewallProbeCommand(a.zone, a.source), parse: (o) => readFirewall(o.stdout, a.zone) }),
  plan: (s, a) => planFirewall(s, a),
  apply: (changes, a, ctx) => applyFirewall(changes, a, ctx),
};
