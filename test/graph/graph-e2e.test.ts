// `hostwire graph` from the command line: an inventory written by `hostwire init`, a subnet state
// file beside it, the SVG rendered by headless Chromium and checked by its pixels; and --facts
// read live from this machine through the local transport (read-only).
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { screenshot } from '../report/chromium.js';
import { countColor, decodePng, distinctColors } from '../report/png.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'hw-graph-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const hostwire = (args: string[]) => new Promise<{ code: number; out: string }>((resolve) => {
  execFile(process.execPath, [CLI, ...args], { cwd: dir, timeout: 120_000 }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, out: stdout + stderr }));
});

test.serial('init -> graph -o svg -> a picture with the cluster\'s parts in their colours', async (t) => {
  const init = await hostwire(['init', '-y', '--type', 'flannel', '--host', '10.0.0.11,10.0.0.12,10.0.0.13', '--ramp-host', '10.0.0.30', '--vip', '10.0.0.100', '--dir', 'c']);
  t.is(init.code, 0, init.out);
  mkdirSync(path.join(dir, 'c/.hostwire'));
  writeFileSync(path.join(dir, 'c/.hostwire/subnets.json'), JSON.stringify({ version: 1, style: 'flannel', cursor: 0, leases: [{ subnet: '10.244.9.0/24', node: 'node2', public_ip: '10.0.0.12' }] }));
  const text = await hostwire(['graph', '-i', 'c/inventory.yml']);
  t.is(text.code, 0, text.out);
  t.regex(text.out, /node2 \[node\]  10\.0\.0\.12\n  pods 10\.244\.9\.0\/24\n/, 'the stored lease, not a plan');
  const r = await hostwire(['graph', '-i', 'c/inventory.yml', '-o', 'c/cluster.svg']);
  t.is(r.code, 0, r.out);
  const svg = readFileSync(path.join(dir, 'c/cluster.svg'), 'utf8');
  const [, w, h] = /width="(\d+)" height="(\d+)"/.exec(svg)!.map(Number) as [number, number, number];
  const png = path.join(dir, 'cluster.png');
  await screenshot(path.join(dir, 'c/cluster.svg'), png, w, h);
  const img = decodePng(readFileSync(png));
  t.deepEqual([img.width, img.height], [w, h]);
  t.true(distinctColors(img) > 30, 'not blank');
  t.true(countColor(img, '#d08a00', 1, 30) > 150, 'host-gw arcs drawn');
  t.true(countColor(img, '#e3f4e8', 2, 6) > 500, 'pod subnet boxes drawn');
  t.true(countColor(img, '#9a6412', 2, 10) > 200, 'the ramp node header drawn');
  t.true(countColor(img, '#fbe7e5', 2, 6) > 300, 'the F5 box drawn');
});

test.serial('--facts reads the uplink live (local transport)', async (t) => {
  writeFileSync(path.join(dir, 'local.ini'), '[nodes]\nhere ansible_connection=local\n[all:vars]\nsdn=flannel-hostgw\ncluster_network=10.244.0.0/16\n');
  const r = await hostwire(['graph', '-i', 'local.ini', '--facts', '--format', 'dot']);
  t.is(r.code, 0, r.out);
  const route = await new Promise<string>((resolve) => execFile('ip', ['-j', 'route', 'show', 'default'], (_e, out) => resolve(out)));
  const dev = (JSON.parse(route || '[]') as { dev?: string }[])[0]?.dev;
  if (dev) t.regex(r.out, new RegExp(`"here" \\[label="here \\(node\\)\\\\n${dev} `), 'the default route\'s NIC is the uplink');
  else t.regex(r.out, /"here" \[label="here \(node\)\\nuplink /);
});
