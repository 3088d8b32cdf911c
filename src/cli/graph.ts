// `hostwire graph -i INV`: a picture of the cluster network (SVG, Graphviz dot or text) from the
// inventory, the subnet state file and, with --facts, what the hosts report live.
import type { Command } from 'commander';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connectionSettings, hostVars, loadInventory } from '../engine/inventory/index.js';
import { BadInputError } from '../errors.js';
import { mergeVars, templatedVars } from '../engine/vars/index.js';
import { forEachLimited } from '../engine/runner/pool.js';
import { createTransport } from '../transports/index.js';
import { gatherFacts } from '../facts/index.js';
import { defaultStateFile, parseStateFile } from '../sdn/store/file-store.js';
import type { Snapshot } from '../sdn/store/types.js';
import { buildGraph, renderDot, renderSvg, renderText } from '../graph/index.js';
import { collect, count } from './options.js';
import { reportError } from './errors.js';

interface GraphFlags {
  inventory: string[];
  format?: string;
  output?: string;
  facts?: boolean;
  stateFile?: string;
  connection?: 'ssh' | 'local';
  hostKeyChecking?: 'strict' | 'accept-new' | 'off';
  verbose: number;
}

export function registerGraphCommand(program: Command): void {
  program
    .command('graph')
    .description('draw the cluster network: nodes, uplinks, br-ex, pod subnets, host-gw routes or tunnels, F5 and ramp nodes')
    .option('-i, --inventory <path>', 'inventory file or directory (repeatable)', collect, [])
    .option('--format <format>', 'svg, dot or text (default: from -o\'s extension, else text)')
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .option('--facts', 'connect to the hosts for live facts (uplink, br-ex, MTU)')
    .option('--state-file <file>', 'subnet state file (default: <inventory dir>/.hostwire/subnets.json)')
    .option('-c, --connection <type>', 'with --facts: ssh or local')
    .option('--host-key-checking <policy>', 'with --facts: strict (default), accept-new or off')
    .option('-v, --verbose', 'more output', count, 0)
    .addHelpText('after', `
Examples:
  hostwire graph -i inventory/cluster.yml                       (text)
  hostwire graph -i inventory/cluster.yml -o cluster.svg        (SVG: open it in a browser)
  hostwire graph -i inventory/cluster.yml --format dot | dot -Tpng > cluster.png
  hostwire graph -i inv.yml --facts -o live.svg                 (uplinks and br-ex as the hosts report them)`)
    .action(async (f: GraphFlags) => {
      try {
        process.exitCode = await graphCommand(f);
      } catch (err) {
        process.exitCode = reportError(err, f.verbose);
      }
    });
}

async function graphCommand(f: GraphFlags): Promise<number> {
  if (!f.inventory.length) throw new BadInputError('graph: -i INVENTORY is required');
  const format = f.format ?? (f.output ? path.extname(f.output).slice(1) : 'text');
  if (!['svg', 'dot', 'text', 'txt'].includes(format)) throw new BadInputError(`--format: expected svg, dot or text, got '${format}'`);
  const inv = await loadInventory(f.inventory);
  const hosts = [...inv.hosts.keys()].map((name) => {
    const vars = hostVars(inv, name);
    return { name, vars, groups: (vars.group_names as string[] | undefined) ?? [] };
  });
  if (!hosts.length) throw new BadInputError('graph: the inventory has no hosts');
  const facts = f.facts ? await liveFacts(hosts.map((h) => h.name), hosts, f) : undefined;
  const model = buildGraph({ hosts, snapshot: readSnapshot(f, hosts[0]!.vars), facts });
  const out = format === 'svg' ? renderSvg(model) : format === 'dot' ? renderDot(model) : renderText(model);
  if (f.output) writeFileSync(f.output, out);
  else process.stdout.write(out);
  return 0;
}

function readSnapshot(f: GraphFlags, vars: Record<string, unknown>): Snapshot | undefined {
  const fromVar = typeof vars.subnet_state_file === 'string' && !vars.subnet_state_file.includes('{{') ? vars.subnet_state_file : undefined;
  const first = f.inventory.find((s) => !s.includes(','));
  const file = f.stateFile ?? fromVar ?? (first ? defaultStateFile(existsSync(first) && !first.endsWith('/') && path.extname(first) ? path.dirname(path.resolve(first)) : path.resolve(first)) : undefined);
  if (!file || !existsSync(file)) {
    if (f.stateFile) throw new BadInputError(`--state-file: '${f.stateFile}' does not exist`);
    return undefined;
  }
  return parseStateFile(readFileSync(file, 'utf8'), file);
}

async function liveFacts(names: string[], hosts: { name: string; vars: Record<string, unknown> }[], f: GraphFlags) {
  const out: Record<string, Record<string, unknown> | undefined> = {};
  await forEachLimited(names, 20, async (name) => {
    const vars = templatedVars(mergeVars(hosts.find((h) => h.name === name)!.vars));
    const settings = connectionSettings(vars);
    const netns = vars.hostwire_netns;
    const t = createTransport(name, { ...settings, connection: f.connection ?? settings.connection, netns: typeof netns === 'string' ? netns : undefined }, { hostKeyChecking: f.hostKeyChecking });
    try {
      await t.connect();
      out[name] = (await gatherFacts(t)) as unknown as Record<string, unknown>;
    } catch (err) {
      process.stderr.write(`[WARNING]: ${name}: no live facts (${(err as Error).message.split('\n')[0]})\n`);
    } finally {
      await t.close().catch(() => undefined);
    }
  });
  return out;
}
