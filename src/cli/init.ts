// `hostwire init`: a wizard for the three uses (MicroShift single node, flannel host-gw cluster,
// OVN cluster, optional F5 ramp nodes) that writes an inventory, group_vars and a playbook.
// Every question has a flag; with --yes, or without a terminal, it never prompts.
import type { Command } from 'commander';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BadInputError } from '../errors.js';
import {
  CLUSTER_TYPES, checkMtu, checkNetwork, checkSources, checkSubnetLen, checkVip, defaultsFor, formatPreview, generate, parseHosts, parseType, previewSubnets,
  type ClusterType, type InitAnswers,
} from '../init/index.js';
import { reportError } from './errors.js';
import { collect } from './options.js';

interface InitFlags {
  type?: string;
  host: string[];
  user?: string;
  key?: string;
  network?: string;
  subnetLen?: string;
  mtu?: string;
  firewallSource: string[];
  uplink?: boolean;
  rampHost: string[];
  vip?: string;
  f5Ip?: string;
  dir: string;
  yes?: boolean;
  force?: boolean;
}

export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description('write an inventory, group_vars and a playbook for a new cluster (interactive on a terminal)')
    .option('--type <type>', 'microshift | flannel | ovn')
    .option('--host <addr>', 'a node: IP, name=IP or a DNS name (repeatable, or comma separated)', collect, [])
    .option('--user <name>', 'SSH user (default root)')
    .option('--key <file>', 'SSH private key file')
    .option('--network <cidr>', 'cluster (pod) network, default 10.244.0.0/16 (MicroShift 10.42.0.0/16)')
    .option('--subnet-len <n>', 'each node\'s pod subnet length (default 24; OVN 23)')
    .option('--mtu <n>', 'pod MTU, or auto (from the uplink at run time)')
    .option('--firewall-source <cidr>', 'extra source firewalld trusts (repeatable)', collect, [])
    .option('--uplink', 'MicroShift: move the uplink NIC into br-ex (disruptive)')
    .option('--ramp-host <addr>', 'an F5 ramp node (repeatable)', collect, [])
    .option('--vip <ip>', 'the F5 virtual IP the ramp nodes carry')
    .option('--f5-ip <ip>', 'the F5\'s address on the ramp nodes\' network')
    .option('-d, --dir <dir>', 'where to write the files', '.')
    .option('-y, --yes', 'ask nothing: flags and defaults only')
    .option('--force', 'overwrite existing files')
    .addHelpText('after', `
Examples:
  hostwire init                                         (asks on a terminal)
  hostwire init --yes --type microshift --host 10.0.0.5 --dir ms
  hostwire init --yes --type flannel --host 10.0.0.11,10.0.0.12,10.0.0.13 --key ~/.ssh/id_ed25519 --dir lab
  hostwire init -y --type ovn --host n1=10.0.0.11 --host n2=10.0.0.12 --subnet-len 23 --mtu 1400
  hostwire init -y --type flannel --host 10.0.0.11,10.0.0.12 --ramp-host 10.0.0.12 --vip 10.0.0.100 --f5-ip 10.0.0.2`)
    .action(async (f: InitFlags) => {
      try {
        process.exitCode = await initCommand(f);
      } catch (err) {
        // Ctrl-C in a prompt: stop quietly, write nothing.
        if ((err as Error)?.name === 'ExitPromptError') {
          process.stderr.write('\naborted: nothing written\n');
          process.exitCode = 130;
        } else process.exitCode = reportError(err, 0);
      }
    });
}

const repoDir = () => fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');

async function initCommand(f: InitFlags): Promise<number> {
  const interactive = !f.yes && Boolean(process.stdin.isTTY && process.stdout.isTTY);
  const answers = interactive ? await ask(f) : fromFlags(f);
  const preview = previewSubnets(answers);
  const out = generate(answers, { repoDir: repoDir(), outDir: f.dir });
  const targets = out.files.map((file) => ({ ...file, full: path.resolve(f.dir, file.path) }));
  const existing = targets.filter((t) => existsSync(t.full));
  if (existing.length && !f.force) {
    const list = existing.map((t) => path.join(f.dir, t.path)).join(', ');
    if (!interactive) throw new BadInputError(`${list} already exist(s); use --force to overwrite`);
    const { confirm } = await import('@inquirer/prompts');
    if (!(await confirm({ message: `Overwrite ${list}?`, default: false }))) return 1;
  }
  for (const t of targets) {
    mkdirSync(path.dirname(t.full), { recursive: true });
    writeFileSync(t.full, t.content);
    process.stdout.write(`wrote ${path.join(f.dir, t.path)}\n`);
  }
  process.stdout.write(`\n${formatPreview(preview)}\n\nCheck what would change, then run it:\n  ${out.command} --check --diff\n  ${out.command}\n`);
  return 0;
}

function fromFlags(f: InitFlags): InitAnswers {
  if (!f.type) throw new BadInputError('--type is required without a terminal (microshift, flannel or ovn)');
  const type = parseType(f.type);
  const d = defaultsFor(type);
  if (!f.host.length) throw new BadInputError('--host is required without a terminal (an IP, name=IP or a DNS name; repeatable)');
  const hosts = parseHosts(f.host);
  if (type === 'microshift' && hosts.length !== 1) throw new BadInputError(`--host: a MicroShift single node takes exactly one host, got ${hosts.length}`);
  const network = checkNetwork(f.network ?? d.network);
  const ramp = rampFrom(f.rampHost, f.vip, f.f5Ip);
  return {
    type,
    hosts,
    user: f.user ?? d.user,
    key: f.key,
    network,
    subnetLen: f.subnetLen !== undefined ? checkSubnetLen(f.subnetLen, network) : d.subnetLen,
    mtu: checkMtu(f.mtu),
    firewallSources: [...d.firewallSources, ...checkSources(f.firewallSource)],
    uplink: Boolean(f.uplink),
    ramp,
  };
}

function rampFrom(hosts: string[], vip?: string, f5Ip?: string): InitAnswers['ramp'] {
  if (!hosts.length && !vip) return undefined;
  if (!hosts.length || !vip) throw new BadInputError('F5 ramp nodes need both --ramp-host and --vip');
  return { hosts: parseHosts(hosts, 'ramp', '--ramp-host'), vip: checkVip(vip), f5Ip: f5Ip === undefined ? undefined : checkVip(f5Ip) };
}

/** Turn a checker that throws into inquirer's validate (true or the message). */
const valid = (check: (v: string) => unknown) => (v: string) => {
  try {
    check(v);
    return true;
  } catch (err) {
    return (err as Error).message.replace(/^--[\w-]+: /, '');
  }
};

async function ask(f: InitFlags): Promise<InitAnswers> {
  const { select, input, confirm } = await import('@inquirer/prompts');
  const type: ClusterType = f.type ? parseType(f.type) : await select({ message: 'What are you setting up?', choices: CLUSTER_TYPES });
  const d = defaultsFor(type);
  const single = type === 'microshift';
  const hostsText = f.host.length ? f.host.join(',') : await input({
    message: single ? 'The node (IP, name=IP or DNS name):' : 'The nodes (IP, name=IP or DNS name; comma separated; the first is the master):',
    required: true,
    validate: valid((v) => {
      const h = parseHosts([v]);
      if (single && h.length !== 1) throw new Error('a MicroShift single node takes exactly one host');
    }),
  });
  const hosts = parseHosts([hostsText]);
  const user = f.user ?? await input({ message: 'SSH user:', default: d.user });
  const defKey = ['id_ed25519', 'id_rsa'].map((k) => path.join(homedir(), '.ssh', k)).find((k) => existsSync(k)) ?? '';
  const key = f.key ?? (await input({ message: 'SSH private key file (empty: ssh-agent / default keys):', default: defKey })).trim();
  const network = checkNetwork(f.network ?? await input({ message: 'Cluster (pod) network:', default: d.network, validate: valid(checkNetwork) }));
  let subnetLen = d.subnetLen;
  if (!single) {
    subnetLen = f.subnetLen !== undefined ? checkSubnetLen(f.subnetLen, network) : Number(await input({
      message: 'Subnet length per node:',
      default: String(d.subnetLen),
      validate: valid((v) => {
        checkSubnetLen(v, network);
        previewSubnets({ type, network, subnetLen: Number(v), hosts });
      }),
    }));
  }
  process.stdout.write(`\n${formatPreview(previewSubnets({ type, network, subnetLen, hosts }))}\n\n`);
  const mtu = checkMtu(f.mtu ?? await input({ message: 'Pod MTU (auto = from the uplink at run time):', default: 'auto', validate: valid(checkMtu) }));
  const extra = f.firewallSource.length ? f.firewallSource : [await input({
    message: `Extra sources firewalld should trust (comma separated; ${network}${d.firewallSources.length ? ` and ${d.firewallSources.join(', ')}` : ''} already are):`,
    default: '',
    validate: valid((v) => checkSources([v])),
  })];
  const uplink = single ? (f.uplink ?? await confirm({ message: 'Move the uplink NIC into br-ex? (disruptive: the host\'s IP moves to br-ex)', default: false })) : false;
  let ramp = f.rampHost.length || f.vip ? rampFrom(f.rampHost, f.vip, f.f5Ip) : undefined;
  if (!ramp && !f.rampHost.length && await confirm({ message: 'Add F5 ramp nodes?', default: false })) {
    const rh = await input({ message: 'Ramp nodes (cluster nodes or other hosts: IP or name=IP, comma separated):', required: true, validate: valid((v) => parseHosts([v], 'ramp')) });
    const vip = await input({ message: 'F5 virtual IP (VIP):', required: true, validate: valid(checkVip) });
    const f5 = await input({ message: 'The F5\'s own address (empty: set f5_ramp_f5_ip later):', default: '', validate: (v: string) => (v.trim() ? valid(checkVip)(v) : true) });
    ramp = rampFrom([rh], vip, f5.trim() || undefined);
  }
  return { type, hosts, user, key: key || undefined, network, subnetLen, mtu, firewallSources: [...d.firewallSources, ...checkSources(extra)], uplink, ramp };
}
