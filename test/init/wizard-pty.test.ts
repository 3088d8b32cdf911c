// The wizard driven through a real pseudo-terminal (python3's pty module, test/init/pty-drive.py):
// arrow keys, typing, a rejected answer corrected, the subnet preview; --yes on a terminal asks
// nothing; without a terminal it never prompts; Ctrl-C writes nothing.
import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { drive as ptyDrive } from '../helpers/pty.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'hw-wizard-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const drive = (args: string[], steps: [string, string][]) => ptyDrive(dir, args, steps);
const read = (rel: string) => readFileSync(path.join(dir, rel), 'utf8');
const DOWN = '\x1b[B';
const BACKSPACE = '\x7f';

test.serial('interactive flannel cluster with F5 ramp nodes', async (t) => {
  const r = await drive(['init', '--dir', 'flannel'], [
    ['What are you setting up\\?', `${DOWN}\r`],
    ['The nodes', '10.0.0.11,n2=10.0.0.12\r'],
    ['SSH user', 'admin\r'],
    ['SSH private key', '/keys/id\r'],
    ['Cluster \\(pod\\) network', '10.128.0.0/14\r'],
    ['Subnet length per node', '33\r'],
    ['expected a prefix length between 15 and 30', `${BACKSPACE}${BACKSPACE}23\r`],
    ['Pod MTU', '1400\r'],
    ['Extra sources firewalld should trust', '192.168.7.0/24\r'],
    ['Add F5 ramp nodes\\?', 'y\r'],
    ['Ramp nodes', '10.0.0.30\r'],
    ['F5 virtual IP', '10.0.0.100\r'],
    ["The F5's own address", '10.0.0.2\r'],
  ]);
  t.is(r.failed_step, null, r.output);
  t.is(r.code, 0, r.output);
  t.regex(r.output, /node1\s+10\.128\.2\.0\/23\n\s+n2\s+10\.128\.4\.0\/23/, 'subnets per node are shown');
  t.regex(r.output, /hostwire run flannel\/site\.yml -i flannel\/inventory\.yml --roles-path \S+\/roles --check --diff/);
  const inv = YAML.parse(read('flannel/inventory.yml'));
  t.deepEqual(inv.all.hosts, { node1: { ansible_host: '10.0.0.11' }, n2: { ansible_host: '10.0.0.12' }, ramp1: { ansible_host: '10.0.0.30' } });
  t.like(YAML.parse(read('flannel/group_vars/all.yml')), {
    ansible_user: 'admin', ansible_ssh_private_key_file: '/keys/id', sdn: 'flannel-hostgw', cluster_network: '10.128.0.0/14',
    flannel_hostgw_subnet_len: 23, flannel_hostgw_mtu: 1400, f5_ramp_vip: '10.0.0.100', f5_ramp_f5_ip: '10.0.0.2',
  });
});

test.serial('interactive MicroShift asks about the uplink and takes defaults on Enter', async (t) => {
  const r = await drive(['init', '--dir', 'ms'], [
    ['What are you setting up\\?', '\r'],
    ['The node ', '10.0.0.5\r'],
    ['SSH user', '\r'],
    ['SSH private key', '\r'],
    ['Cluster \\(pod\\) network', '\r'],
    ['Pod MTU', '\r'],
    ['Extra sources', '\r'],
    ['Move the uplink NIC into br-ex\\?', '\r'],
    ['Add F5 ramp nodes\\?', '\r'],
  ]);
  t.is(r.failed_step, null, r.output);
  t.is(r.code, 0, r.output);
  t.notRegex(r.output, /Subnet length per node/, 'a single node has no per-node subnet question');
  const vars = YAML.parse(read('ms/group_vars/all.yml'));
  t.like(vars, { ansible_user: 'root', microshift_configure_ovs_mode: 'no_uplink', microshift_cluster_network: '10.42.0.0/16' });
  t.deepEqual(vars.firewalld_trusted_sources, ['10.42.0.0/16', '169.254.169.1']);
  t.false('microshift_mtu' in vars);
});

test.serial('--yes on a terminal asks nothing', async (t) => {
  const r = await drive(['init', '--yes', '--type', 'ovn', '--host', '10.0.0.11,10.0.0.12', '--dir', 'ovn'], []);
  t.is(r.code, 0, r.output);
  t.notRegex(r.output, /\?/, 'no prompt was shown');
  t.like(YAML.parse(read('ovn/group_vars/all.yml')), { sdn: 'ovn', pod_subnet_len: 23 });
});

test.serial('Ctrl-C in a prompt writes nothing', async (t) => {
  const r = await drive(['init', '--dir', 'aborted'], [['What are you setting up\\?', '\x03']]);
  t.is(r.code, 130, r.output);
  t.regex(r.output, /aborted: nothing written/);
  t.false(existsSync(path.join(dir, 'aborted')));
});

test.serial('without a terminal it never prompts: missing answers are errors, flags suffice', async (t) => {
  const run = (args: string[]) => new Promise<{ code: number; out: string }>((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: dir, timeout: 30_000 }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, out: stdout + stderr }));
  });
  const missing = await run(['init', '--dir', 'x']);
  t.is(missing.code, 5);
  t.regex(missing.out, /ERROR! --type is required without a terminal/);
  const ok = await run(['init', '--type', 'microshift', '--host', '10.0.0.5', '--dir', 'notty']);
  t.is(ok.code, 0, ok.out);
  t.true(existsSync(path.join(dir, 'notty/inventory.yml')));
  const again = await run(['init', '--type', 'microshift', '--host', '10.0.0.5', '--dir', 'notty']);
  t.is(again.code, 5);
  t.regex(again.out, /already exist\(s\); use --force to overwrite/);
});
