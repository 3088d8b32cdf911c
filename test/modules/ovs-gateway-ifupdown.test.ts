// A DHCP uplink held by ifupdown's ISC dhclient (`auto eth0` / `iface eth0 inet dhcp`), from a probe recorded on a
// lab host (cases/probe-ifupdown-dhcp-fresh.txt: dhclient 4.4.3 as ifupdown 0.8.41 starts it, its lease file's DUID).
// The plan gives networkd on br-ex dhclient's own client id - the one the DHCP server recorded for that lease,
// `ff:0a:bc:92:0b:00:01:00:01:32:9e:71:68:0a:58:0a:bc:92:0b` in dnsmasq's lease file (IAID = the MAC's low 4 bytes,
// then the DUID) - and the stanza to make `inet manual`; shapes it cannot hand back are refused before any change.
// The script's side runs in dash with systemd and ifupdown stubbed: the stanza edited and put back byte for byte,
// a dhclient stopped without a release, `ifup --force` in a unit of its own on the reverse move.
import test from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText, parsePrev } from '../../src/modules/ovs_gateway/env.js';
import { ifupdownLease, iscStringHex } from '../../src/modules/ovs_gateway/ifupdown.js';
import { parseGatewayProbe, type GatewayState } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';

const caseText = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}`, import.meta.url), 'utf8');
const fresh = () => parseGatewayProbe(caseText('probe-ifupdown-dhcp-fresh.txt'));
const args = (o: Record<string, unknown> = {}) => ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'netdev', ...o });
const txns = (s: GatewayState, o: Record<string, unknown> = {}) => planUplink(s, args(o)).filter(isTxnChange) as TxnChange[];
const DUID = '00:01:00:01:32:9e:71:68:0a:58:0a:bc:92:0b';
/** What dnsmasq recorded as the lease's client id (its lease file on the lab's DHCP server). */
const SERVER_CLIENT_ID = 'ff:0a:bc:92:0b:00:01:00:01:32:9e:71:68:0a:58:0a:bc:92:0b';

test('ISC\'s quoted DUID string decodes to its bytes', (t) => {
  t.is(iscStringHex('"\\000\\001\\000\\0012\\236qh\\012X\\012\\274\\222\\013";'), DUID);
  t.is(iscStringHex('not quoted'), undefined);
});

test('the plan: networkd on br-ex sends dhclient\'s client id (the server\'s record), the stanza is kept for the move and the reverse move', (t) => {
  const s = fresh();
  t.deepEqual(s.ifupdown?.up, ['eth0', 'lo']);
  const [m] = txns(s);
  const env = parseEnvText(m!.txn.env!);
  t.like(env, { METHOD: 'dhcp', UPLINK: 'eth0', IFUPDOWN_FILE: '/etc/network/interfaces.d/eth0', IFUPDOWN_LINE: 'iface eth0 inet dhcp', DUID4: DUID, IAID4: String(0x0abc920b) });
  const clientId = ['ff', Number(env.IAID4).toString(16).padStart(8, '0').match(/../g)!.join(':'), env.DUID4].join(':');
  t.is(clientId, SERVER_CLIENT_ID);
  const prev = parsePrev(m!.txn.prev!)!;
  t.deepEqual(prev.ifupdown, { file: '/etc/network/interfaces.d/eth0', line: 'iface eth0 inet dhcp', duid: DUID, iaid: 0x0abc920b });
  t.is(prev.nmConn, undefined, 'NM held no profile on it');
});

// Recorded on a VM lab host booted with Debian's installer stanza in /etc/network/interfaces (`allow-hotplug eth0` /
// `iface eth0 inet dhcp`): udev's hotplug event had ifup@eth0.service start dhclient; NetworkManager runs (its ifupdown
// plugin leaves eth0 unmanaged). test/vm/uplink-dhcp-hotplug.test.ts runs it.
test('allow-hotplug in /etc/network/interfaces (a VM, ifup@eth0\'s dhclient, NM running): the same plan, the stanza in the main file', (t) => {
  const s = parseGatewayProbe(caseText('probe-ifupdown-hotplug-dhcp.txt'));
  t.deepEqual(s.ifupdown?.up, ['lo', 'eth0']);
  t.true(s.nm.running, 'NetworkManager runs beside ifupdown');
  const [m] = txns(s, { backend: 'ovs' });
  const duid = '00:01:00:01:32:9e:a4:30:52:54:00:a1:e2:0b';
  t.like(parseEnvText(m!.txn.env!), { METHOD: 'dhcp', UPLINK: 'eth0', IFUPDOWN_FILE: '/etc/network/interfaces', IFUPDOWN_LINE: 'iface eth0 inet dhcp', DUID4: duid, IAID4: String(0x00a1e20b) });
  t.deepEqual(parsePrev(m!.txn.prev!)!.ifupdown, { file: '/etc/network/interfaces', line: 'iface eth0 inet dhcp', duid, iaid: 0x00a1e20b });
});

const withIfupdown = (s: GatewayState, f: (x: NonNullable<GatewayState['ifupdown']>) => Partial<NonNullable<GatewayState['ifupdown']>>): GatewayState =>
  ({ ...s, ifupdown: { ...s.ifupdown!, ...f(s.ifupdown!) } });
const argvWithout = (s: GatewayState, flag: string) => s.ifupdown!.dhclients.map((d) => ({ ...d, argv: d.argv.filter((a) => a !== flag) }));

test('refused before any change: no client id, a client id of dhclient.conf, a dhclient ifupdown did not start, another stanza, no DUID, the nm backend', (t) => {
  const s = fresh();
  const refused = (x: GatewayState, re: RegExp, o: Record<string, unknown> = {}) => t.throws(() => planUplink(x, args(o)), { message: re });
  refused(withIfupdown(s, () => ({ dhclients: argvWithout(s, '-i') })), /sends no client identifier \(no -i/);
  refused(withIfupdown(s, () => ({ clientIdLines: ['send dhcp-client-identifier = hardware;'] })), /client identifier of its own in \/etc\/dhcp\/dhclient\.conf/);
  refused(withIfupdown(s, (x) => ({ dhclients: x.dhclients.map((d) => ({ ...d, argv: ['dhclient', 'eth0'] })) })), /not started by ifupdown/);
  refused(withIfupdown(s, () => ({ up: ['lo'] })), /not started by ifupdown/);
  refused(withIfupdown(s, (x) => ({ stanzas: [...x.stanzas, { file: '/etc/network/interfaces', text: 'iface eth0 inet6 auto' }] })), /not one `iface eth0 inet dhcp`/);
  refused(withIfupdown(s, () => ({ duids: {} })), /no DUID is recorded/);
  // A stanza of another interface is not the uplink's.
  refused(withIfupdown(s, (x) => ({ stanzas: x.stanzas.map((y) => ({ ...y, text: y.text.replace('eth0', 'eth.') })) })), /not one `iface eth0 inet dhcp` \(found: none\)/);
  refused({ ...s, nm: { ...s.nm, running: true, ovsPlugin: true } }, /the nm backend does not take it over/);
});

const part = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/script/configure-ovs-${n}.sh`, import.meta.url), 'utf8');
const SCRIPT = ['apply', 'nm', 'networkd', 'ifupdown', 'state', 'check'].map(part).join('\n').replaceAll('/run/systemd/', '$D/systemd/');
const STANZA = '# managed by the installer\nauto eth0\n  iface eth0 inet dhcp\n\thostname node1\n';

/** dash with the script, `ifup`/`systemd-run`/`systemctl` logging to $D/log; the dhclient pid file under $D. */
function run(t: { teardown(f: () => void): void }, call: string, stanza = STANZA): { out: string; log: string[]; stanza: string; dir: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-ifupdown-script-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'eth0'), stanza);
  writeFileSync(path.join(dir, 'log'), '');
  // ifup, systemd-run, systemctl: commands on PATH that log (a shell function cannot be named systemd-run).
  mkdirSync(path.join(dir, 'bin'));
  mkdirSync(path.join(dir, 'systemd', 'system'), { recursive: true });
  for (const c of ['ifup', 'systemd-run', 'systemctl']) writeFileSync(path.join(dir, 'bin', c), `#!/bin/sh\necho "${c} $*" >>"${dir}/log"\n`, { mode: 0o755 });
  const stub = [
    'has_v4() { return 0; }', 'step() { "$@"; }',
    // The pid file's path is the host's; the stub reads it from $D.
    `dhclient_pid() { p=$(cat "$D/dhclient.$1.pid" 2>/dev/null) || return 1; [ "$(cat "/proc/$p/comm" 2>/dev/null)" = dhclient ] && proc_alive "$p" && echo "$p"; }`,
  ].join('\n');
  const out = execFileSync('dash', ['-c', `${SCRIPT}\n${stub}\nD=${dir}\n${call}`], { encoding: 'utf8', env: { PATH: `${dir}/bin:${process.env.PATH}` } });
  return { out, log: readFileSync(path.join(dir, 'log'), 'utf8').split('\n').filter(Boolean), stanza: readFileSync(path.join(dir, 'eth0'), 'utf8'), dir };
}

test('networkd on br-ex: ClientIdentifier=duid with dhclient\'s IAID and DUID', (t) => {
  const r = run(t, `BRIDGE=br-ex MAC=0a:58:0a:bc:92:0b METHOD=dhcp METHOD6= ADDRS= METRIC=48 DUID4=${DUID} IAID4=180130315; networkd_conf; cat "$D/systemd/network/10-hostwire-br-ex.network"`);
  t.regex(r.out, /\n\[DHCPv4\]\nClientIdentifier=duid\nIAID=180130315\nDUIDType=link-layer-time\nDUIDRawData=00:01:32:9e:71:68:0a:58:0a:bc:92:0b\nRouteMetric=48\nUseDNS=yes\n/);
  t.regex(run(t, 'BRIDGE=br-ex MAC=0a:58:0a:bc:92:0b METHOD=dhcp METHOD6= ADDRS= METRIC=48; networkd_conf; cat "$D/systemd/network/10-hostwire-br-ex.network"').out,
    /\n\[DHCPv4\]\nClientIdentifier=mac\n/, 'without ifupdown: as before');
  t.regex(run(t, `BRIDGE=br-ex MAC=0a:58:0a:bc:92:0b METHOD= METHOD6=dhcp ADDRS= METRIC=48 DUID6=${DUID} IAID6=7; networkd_conf; cat "$D/systemd/network/10-hostwire-br-ex.network"`).out,
    /\n\[DHCPv6\]\nUseDNS=yes\nWithoutRA=solicit\nDUIDType=link-layer-time\nDUIDRawData=00:01:32:9e:71:68:0a:58:0a:bc:92:0b\nIAID=7\n/, 'DHCPv6\'s DUID lines as before');
});

test('the move makes the stanza inet manual and stops dhclient without a release; the reverse move puts the stanza back byte for byte and runs ifup --force in a unit of its own', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-ifupdown-proc-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // A process named dhclient (a copy of sleep): the script checks /proc/<pid>/comm before it signals.
  copyFileSync(execFileSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).trim(), path.join(dir, 'dhclient'));
  execFileSync('chmod', ['+x', path.join(dir, 'dhclient')]);
  const proc = spawn(path.join(dir, 'dhclient'), ['30'], { stdio: 'ignore' });
  t.teardown(() => { proc.kill('SIGKILL'); });
  const exited = new Promise<NodeJS.Signals | null>((res) => proc.on('exit', (_c, sig) => res(sig)));
  const env = `UPLINK=eth0 BRIDGE=br-ex IFUPDOWN_FILE="$D/eth0" IFUPDOWN_LINE='  iface eth0 inet dhcp'`;
  const moved = run(t, `echo ${proc.pid} >"$D/dhclient.eth0.pid"; ${env}; ifupdown_port_off; echo "rc=$?"; ifupdown_port_off; echo "again rc=$?"`);
  t.is(await exited, 'SIGTERM', 'dhclient got SIGTERM (dhclient exits on it without a DHCPRELEASE)');
  t.regex(moved.out, /stopping dhclient on eth0 \(pid \d+; no release: br-ex holds the lease\)\nrc=0\nagain rc=0\n$/);
  t.is(moved.stanza, `# managed by the installer\nauto eth0\n# hostwire configure_ovs: this interface is a port of an OVS bridge, which holds its DHCP lease (put back on removal); it was:   iface eth0 inet dhcp\niface eth0 inet manual\n\thostname node1\n`);
  const back = run(t, `IFUPDOWN_FILE="$D/eth0" IFUPDOWN_LINE='  iface eth0 inet dhcp'; ifupdown_back eth0; ifupdown_back eth0`, moved.stanza);
  t.is(back.stanza, STANZA, 'the stanza exactly as it was (and a second reverse move changes nothing)');
  t.deepEqual(back.log.filter((l) => l.startsWith('systemd-run')), Array(2).fill('systemd-run --quiet --collect --unit=hostwire-ifup-eth0 -p RemainAfterExit=yes ifup --force -- eth0'));
});

test('a rollback before dhclient was stopped leaves it running and the stanza untouched', (t) => {
  const r = run(t, `echo $$ >"$D/dhclient.eth0.pid"; IFUPDOWN_FILE="$D/eth0" IFUPDOWN_LINE='  iface eth0 inet dhcp'; dhclient_pid() { echo 1; }; ifupdown_back eth0`);
  t.is(r.stanza, STANZA);
  t.regex(r.out, /dhclient runs on eth0 already/);
  t.deepEqual(r.log, []);
});

test('an interface name is the host\'s text, never a pattern: "eth(0" is refused with its reason, not a regular-expression error', (t) => {
  const st = { up: ['eth(0'], stanzas: [{ file: '/etc/network/interfaces', text: 'iface eth(0 inet static' }], clientIdLines: [], duids: {},
    dhclients: [{ pid: 7, argv: ['/sbin/dhclient', '-4', '-v', '-i', '-pf', '/run/dhclient.eth(0.pid', 'eth(0'] }] };
  t.throws(() => ifupdownLease({ ifupdown: st }, 'eth(0', '0a:58:0a:bc:92:0b'), { message: /"eth\(0" is held by ISC dhclient, but its ifupdown stanzas are not one `iface eth\(0 inet dhcp`/ });
});

// Recorded after the move on the lab host of test/roles-lab/uplink-dhcp-ifupdown.test.ts (HW_RECORD_DIR): networkd's
// default route on br-ex carries the lease as its src, dhclient's on eth0 had none - the lease's route is the DHCP
// client's, so it is no drift (before, every run after the move re-applied it: "differs (now: src ...)").
test('recorded host after the move: networkd\'s lease route on br-ex (src the lease) is converged, not drift', (t) => {
  const s = parseGatewayProbe(caseText('probe-ifupdown-dhcp-moved.txt'));
  t.like(s.routes.find((r) => r.family === 4 && r.dst === 'default'), { dev: 'br-ex', protocol: 'dhcp', prefsrc: '10.101.33.11', metric: 48 });
  t.deepEqual(txns(s), []);
});
