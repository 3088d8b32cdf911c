// Every host-side shell script hostwire ships stays checkable: the .sh files under src/ (loaded as
// text by src/modules/kit/host-script.ts), the uplink move's whole script as installed, the role
// templates that render a script (each variant), and the scenario's stand-in scripts parse with
// `sh -n` and `dash -n` (Debian's /bin/sh), and shellcheck finds nothing beyond the listed, intended
// constructs. shellcheck comes from scripts/setup.sh (Debian package shellcheck).
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { renderString } from '../../src/engine/vars/index.js';
import { readHostScript } from '../../src/modules/kit/host-script.js';
import { SCRIPT } from '../../src/modules/ovs_gateway/script/index.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'hw-host-scripts-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

function filesUnder(rel: string, suffix: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const child = path.posix.join(rel, e.name);
    if (e.isDirectory() && e.name !== 'cases') out.push(...filesUnder(child, suffix));
    else if (e.isFile() && e.name.endsWith(suffix)) out.push(child);
  }
  return out.sort();
}

function saved(name: string, text: string): string {
  const f = path.join(dir, name.replaceAll('/', '_'));
  writeFileSync(f, text);
  return f;
}

/** `sh -n` and `dash -n` of the text: '' when both parse it, else their complaints. */
function parseErrors(name: string, text: string): string {
  const f = saved(name, text);
  return ['sh', 'dash'].map((sh) => {
    const r = spawnSync(sh, ['-n', f], { encoding: 'utf8' });
    return r.status === 0 ? '' : `${sh} -n ${name}: ${r.stderr}`;
  }).join('');
}

/** shellcheck's findings as 'SC<code> <the line, trimmed>', sorted and deduplicated. */
function shellcheck(name: string, text: string): string[] {
  const f = saved(name, text);
  const r = spawnSync('shellcheck', ['--shell=sh', '--format=json1', f], { encoding: 'utf8' });
  if (r.error) throw new Error(`shellcheck is not installed (scripts/setup.sh installs it): ${r.error.message}`);
  const lines = text.split('\n');
  const found = (JSON.parse(r.stdout) as { comments: { line: number; code: number }[] }).comments
    .map((c) => `SC${c.code} ${lines[c.line - 1]!.trim()}`);
  return [...new Set(found)].sort();
}

test('shellcheck and dash are installed', (t) => {
  t.regex(execFileSync('shellcheck', ['--version'], { encoding: 'utf8' }), /version: \d/);
  t.is(spawnSync('dash', ['-c', 'true']).status, 0);
});

test('every .sh file under src/ parses with sh -n and dash -n', (t) => {
  const files = filesUnder('src', '.sh');
  t.true(files.length >= 4, files.join(' '));
  for (const f of files) t.is(parseErrors(f, readFileSync(path.join(root, f), 'utf8')), '', f);
  // The check can fail: a broken copy is reported.
  t.not(parseErrors('broken.sh', `${readFileSync(path.join(root, files[0]!), 'utf8')}\nif true; then\n`), '');
});

/** Intended constructs shellcheck flags in the uplink move's script (it is installed byte for byte, so no directives are added). */
const CONFIGURE_OVS_KNOWN = [
  // SC1007: `VAR= VAR2= ...` clears the variables on purpose before an env file is sourced.
  // SC1090: the sourced env files are the host's own (<bridge>.env / .prev), named at run time.
  'SC1007 IFACE= MAC= MTU= METHOD= ADDRS= ROUTES= NMCONN=; no_device; no_v6; . "$p"',
  'SC1007 load_env() { BRIDGE= UPLINK= MAC= MTU= METHOD= ADDRS= ROUTES= METRIC= DATAPATH= DROP_INGRESS= CHECK= BACKEND= NMCONN=; no_device; no_v6; . "$1"; }',
  'SC1007 no_device() { KIND= BOND_OPTS= MEMBERS= VLAN_ID= VLAN_PROTO= VLAN_PARENT=; }',
  'SC1007 no_v6() { METHOD6= TOKENS6= DUID6= IAID6= DEFAULT6= DUID4= IAID4= IFUPDOWN_FILE= IFUPDOWN_LINE=; }',
  'SC1090 IFACE= MAC= MTU= METHOD= ADDRS= ROUTES= NMCONN=; no_device; no_v6; . "$p"',
  'SC1090 load_env() { BRIDGE= UPLINK= MAC= MTU= METHOD= ADDRS= ROUTES= METRIC= DATAPATH= DROP_INGRESS= CHECK= BACKEND= NMCONN=; no_device; no_v6; . "$1"; }',
  // SC1010: `-M do` is ping's path-MTU option, not the shell keyword.
  'SC1010 ping_ok() { ping -n -c1 -W1 -M do -s "$3" -I "$1" "$2" >/dev/null 2>&1; }',
  // SC2086: word splitting wanted - a saved link line into fields; $fam is -4/-6 (the check's `if`, which splits a
  // route's words for attrs_on, has its own directive in the source).
  'SC2086 have=$(ip $fam route show default dev "$BRIDGE" 2>/dev/null | grep " metric $METRIC\\( \\|$\\)")',
  'SC2086 set -- $cur',
].sort();

test('the uplink move\'s installed script parses and shellcheck finds only its intended constructs', (t) => {
  t.true(SCRIPT.startsWith('#!/bin/sh\n'));
  t.is(parseErrors('configure-ovs', SCRIPT), '');
  t.deepEqual(shellcheck('configure-ovs', SCRIPT), CONFIGURE_OVS_KNOWN);
  // A new finding is reported (an unquoted expansion added to the script).
  t.true(shellcheck('configure-ovs-plus', `${SCRIPT}\nold=$(ls "$LIB"); rm -f $old\n`).includes('SC2086 old=$(ls "$LIB"); rm -f $old'));
});

test('the .sh files\' source notes stay out of the installed script', (t) => {
  t.false(SCRIPT.includes('The host-side script, part'));
  const f = saved('noted.sh', '# a note for the source\n# another\n\necho hi\n# kept: not leading\n');
  t.is(readHostScript(path.basename(f), `file://${dir}/`), '\necho hi\n# kept: not leading\n');
  t.throws(() => readHostScript('absent.sh', `file://${dir}/`), { message: /host script absent\.sh is missing at .*absent\.sh \(the build copies/ });
});

/** Role f5_ramp_node's script template, with its defaults and the values its templated defaults and tasks give. */
function f5RampScript(mode: 'ipip' | 'vxlan', sdn: 'routed' | 'ovs'): string {
  const defaults = parseYaml(readFileSync(path.join(root, 'roles/f5_ramp_node/defaults/main.yml'), 'utf8')) as Record<string, unknown>;
  const vars = {
    ...defaults,
    f5_ramp_tunnel_mode: mode, f5_ramp_sdn: sdn,
    f5_ramp_f5_ip: '192.0.2.10', f5_ramp_f5_tunnel_ip: '10.3.91.216', f5_ramp_tunnel_ip: '10.3.91.217',
    f5_ramp_tunnel_mac: '02:f5:0a:03:5b:d9', f5_ramp_underlay_dev: 'eth0', f5_ramp_tunnel_local: '192.0.2.21',
    f5_ramp_cluster_network: '10.128.0.0/14', f5_ramp_sdn_address: '10.128.2.254',
    f5_ramp_restart_with: ['openvswitch-switch.service', 'ovs-vswitchd.service'],
  };
  const template = readFileSync(path.join(root, 'roles/f5_ramp_node/templates/f5-ramp-apply.sh.j2'), 'utf8');
  return renderString(template, vars);
}

test('role templates that render a script parse and pass shellcheck in every variant', (t) => {
  t.deepEqual(filesUnder('roles', '.sh.j2'), ['roles/f5_ramp_node/templates/f5-ramp-apply.sh.j2']);
  for (const mode of ['ipip', 'vxlan'] as const) {
    for (const sdn of ['routed', 'ovs'] as const) {
      const name = `f5-ramp-apply-${mode}-${sdn}`;
      const text = f5RampScript(mode, sdn);
      t.regex(text, mode === 'vxlan' ? /type vxlan id 1 / : /type ipip remote/, name);
      t.regex(text, sdn === 'ovs' ? /dump-flows "\$br"/ : /iptables -w -t/, name);
      t.is(parseErrors(name, text), '', name);
      // SC2015: `del && add || fail` - fail is meant when either ovs-ofctl fails.
      const known = sdn === 'ovs' ? ['SC2015 ovs-ofctl del-flows "$br" "cookie=$cookie/-1" && ovs-ofctl add-flows "$br" "$want" || fail "cannot set the flows on $br"'] : [];
      t.deepEqual(shellcheck(name, text), known, name);
    }
  }
});

/** Intended constructs shellcheck flags in the scenarios' stand-in scripts. */
const MOLECULE_KNOWN: Record<string, string[]> = {
  // SC2015: `[ a ] && [ b ] || fail` - the failure is meant when either test fails.
  'molecule/f5-ramp/files/kubectl-standin.sh': ['SC2015 [ "$1" = --kubeconfig ] && [ -r "$2" ] || { echo "error: stand-in needs --kubeconfig <readable file>" >&2; exit 1; }'],
  // SC2034: a counted wait loop; its variable is not read.
  'molecule/f5-ramp/files/sdn-standin.sh': ['SC2034 for i in $(seq 1 50); do ip link show dev tun0 >/dev/null 2>&1 && break; sleep 0.1; done'],
};

test('the scenarios\' shell scripts parse and shellcheck finds only their intended constructs', (t) => {
  const files = filesUnder('molecule', '.sh');
  t.true(files.length >= 2, files.join(' '));
  for (const f of files) {
    const text = readFileSync(path.join(root, f), 'utf8');
    t.is(parseErrors(f, text), '', f);
    t.deepEqual(shellcheck(f, text), MOLECULE_KNOWN[f] ?? [], f);
  }
});
