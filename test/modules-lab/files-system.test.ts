// The file and system state modules on a real lab host: converge, converge again (no change),
// drift by hand, --check --diff reports it without touching the host, a normal run fixes it.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convergeCycle, labHost, moduleRunner, type LabHost, type ModuleRunner } from '../helpers/lab-host.js';
import type { Transport } from '../../src/transports/transport.js';
import { newHostState } from '../../src/engine/runner/host-state.js';
import { runModule } from '../../src/engine/runner/run-module.js';
import { readProbe, runProbeBatch } from '../../src/probe/read-ahead.js';
import { getModule } from '../../src/modules/all.js';
import type { ModuleContext } from '../../src/modules/types.js';
import { runDeferredSteps } from '../../src/engine/runner/deferred-steps.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
let host: LabHost;
let tr: Transport;
const base = mkdtempSync(join(tmpdir(), 'hw-mfiles-role-'));
mkdirSync(join(base, 'files'));
mkdirSync(join(base, 'templates'));
writeFileSync(join(base, 'files', 'a.conf'), 'alpha=1\nbeta=2\n');
writeFileSync(join(base, 'templates', 'dns.conf.j2'), '[main]\ndns={{ dns_mode }}\n');
const vars = { dns_mode: 'none' };

test.before(async () => {
  host = await labHost(LAB);
  tr = host.transport;
});

test.after.always(async () => {
  await host?.close();
  rmSync(base, { recursive: true, force: true });
});

const run: ModuleRunner = (name, args, o) => moduleRunner(host, { baseDir: base, vars })(name, args, o);
const sh = (cmd: string) => host.sh(cmd);
const cycle = (t: ExecutionContext, name: string, args: Record<string, unknown>, drift: string, read: string) => convergeCycle(t, host, run, name, args, drift, read);

test.serial('file', async (t) => {
  await cycle(t, 'file', { path: '/srv/hw/dir', state: 'directory', mode: '0750' }, 'chmod 0777 /srv/hw/dir', 'stat -c %a /srv/hw/dir');
  await cycle(t, 'file', { path: '/srv/hw/link', state: 'link', src: '/etc/hostname' }, 'ln -sfn /etc/hosts /srv/hw/link', 'readlink /srv/hw/link');
});

test.serial('copy (with backup)', async (t) => {
  const args = { dest: '/srv/hw/a.conf', src: 'a.conf', mode: '0640', backup: true };
  const checked = await cycle(t, 'copy', args, "printf 'alpha=9\\n' > /srv/hw/a.conf", 'cat /srv/hw/a.conf; stat -c %a /srv/hw/a.conf');
  t.is(checked.diff![0].before, 'alpha=9\n');
  t.is(checked.diff![0].after, 'alpha=1\nbeta=2\n');
  t.regex(await sh('cat /srv/hw/a.conf.*~'), /^alpha=9\n$/, 'the fix kept a backup of the drifted file');
  // attributes alone: no rewrite, still fixed
  await sh('chmod 0600 /srv/hw/a.conf');
  t.deepEqual((await run('copy', args)).changes, ['set mode: 0640 on /srv/hw/a.conf']);
});

test.serial('template', async (t) => {
  const args = { src: 'dns.conf.j2', dest: '/etc/NetworkManager/conf.d/90-hostwire-dns.conf' };
  await cycle(t, 'template', args, "sed -i 's/none/default/' /etc/NetworkManager/conf.d/90-hostwire-dns.conf", 'cat /etc/NetworkManager/conf.d/90-hostwire-dns.conf');
  t.is(await sh('cat /etc/NetworkManager/conf.d/90-hostwire-dns.conf'), '[main]\ndns=none\n');
});

test.serial('lineinfile', async (t) => {
  const args = { path: '/etc/default/openvswitch-switch', regexp: '^#? ?OVS_CTL_OPTS=', line: "OVS_CTL_OPTS='--no-mlockall'" };
  const before = await sh('wc -l < /etc/default/openvswitch-switch');
  await cycle(t, 'lineinfile', args, "sed -i 's/--no-mlockall/--x/' /etc/default/openvswitch-switch", 'cat /etc/default/openvswitch-switch');
  t.is(await sh('wc -l < /etc/default/openvswitch-switch'), before, 'the commented line was replaced, nothing else added');
});

test.serial('ini_file', async (t) => {
  const f = '/etc/NetworkManager/NetworkManager.conf';
  await cycle(t, 'ini_file', { path: f, section: 'ifupdown', option: 'managed', value: 'true', no_extra_spaces: true }, `sed -i 's/managed=true/managed=false/' ${f}`, `cat ${f}`);
  await cycle(t, 'ini_file', { path: '/etc/default/keepalived', option: 'DAEMON_ARGS', value: '"--vrrp"', no_extra_spaces: true }, "sed -i 's/--vrrp/--check/' /etc/default/keepalived", 'cat /etc/default/keepalived');
  t.regex(await sh(`cat ${f}`), /^\[main\]\nplugins=ifupdown,keyfile\n\n\[ifupdown\]\nmanaged=true\n$/);
});

test.serial('sysctl: runtime and file', async (t) => {
  const read = 'cat /proc/sys/net/ipv4/ip_forward /etc/sysctl.d/99-hostwire.conf';
  await cycle(t, 'sysctl', { name: 'net.ipv4.ip_forward', value: 1 }, 'echo 0 > /proc/sys/net/ipv4/ip_forward', read);
  // a file-only drift is fixed in the file alone
  await sh("sed -i 's/=1/=0/' /etc/sysctl.d/99-hostwire.conf");
  t.deepEqual((await run('sysctl', { name: 'net.ipv4.ip_forward', value: 1 })).changes, ['update /etc/sysctl.d/99-hostwire.conf']);
  await t.throwsAsync(run('sysctl', { name: 'net.ipv4.no_such_key', value: 1 }), { message: /does not exist/ });
});

const UNIT = '[Unit]\nDescription=hostwire lab unit\n\n[Service]\nExecStart=/bin/sleep infinity\n';
const showReload = 'systemctl show -p NeedDaemonReload hwlab.service';

test.serial('systemd_unit + service: one deferred daemon-reload before the service acts', async (t) => {
  // One host state across the calls, as the runner keeps it for the batch.
  const state = newHostState(tr.name, {});
  const runOn = (name: string, args: Record<string, unknown>) => runModule(name, args, { transport: tr, baseDir: base, vars, state });
  t.true((await runOn('systemd_unit', { name: 'hwlab.service', content: UNIT })).changed);
  t.true((await runOn('systemd_unit', { name: 'hwlab.service', dropin: '10-env', content: '[Service]\nEnvironment=A=1\n' })).changed);
  t.is(state.deferred.size, 1, 'two writes, one reload deferred');
  const started = await runOn('service', { name: 'hwlab.service', state: 'started' });
  t.deepEqual(started.changes, ['daemon-reload', 'start hwlab.service']);
  t.is(state.deferred.size, 0);
  t.is(await sh('systemctl show -p Environment,ActiveState --value hwlab.service'), 'A=1\nactive\n', 'started with the drop-in applied');
  // nothing pending: the next service change does not reload
  t.deepEqual((await runOn('service', { name: 'hwlab.service', state: 'restarted' })).changes, ['restart hwlab.service']);
  // a change nobody acts on is run at the end of the batch
  t.true((await runOn('systemd_unit', { name: 'hwlab.service', dropin: '10-env', content: '[Service]\nEnvironment=A=2\n' })).changed);
  await new Promise((r) => setTimeout(r, 1100)); // systemd compares mtimes at second granularity
  t.is(await sh(showReload), 'NeedDaemonReload=yes\n');
  const warnings: string[] = [];
  await runDeferredSteps([state], 1, (e) => e.type === 'warning' && warnings.push(e.message));
  t.deepEqual(warnings, []);
  t.is(await sh(showReload), 'NeedDaemonReload=no\n');
  t.is(state.deferred.size, 0);
});

test.serial('systemd_unit and service cycles', async (t) => {
  await cycle(t, 'systemd_unit', { name: 'hwlab2.service', content: UNIT, daemon_reload: true }, 'echo "# drift" >> /etc/systemd/system/hwlab2.service', 'cat /etc/systemd/system/hwlab2.service');
  await cycle(t, 'service', { name: 'hwlab2.service', state: 'started' }, 'systemctl stop hwlab2.service', 'systemctl is-active hwlab2.service || true');
  await cycle(t, 'service', { name: 'keepalived.service', enabled: true }, 'systemctl disable -q keepalived.service', 'systemctl is-enabled keepalived.service || true');
  await t.throwsAsync(run('service', { name: 'nope.service', state: 'started' }), { message: /Could not find the requested service nope.service/ });
});

test.serial('package: installed is one probe, absent removes, check mode predicts', async (t) => {
  const e0 = tr.stats.execs;
  t.false((await run('package', { name: ['ethtool', 'iputils-ping'] })).changed);
  t.is(tr.stats.execs - e0, 1, 'already installed: the probe only, no apt call');
  t.true((await run('package', { name: 'ethtool', state: 'absent' })).changed);
  t.false((await run('package', { name: 'ethtool', state: 'absent' })).changed);
  t.regex(await sh("dpkg-query -W -f '${Status}' ethtool || true"), /not-installed|config-files/);
  const checked = await run('package', { name: 'ethtool' }, { check: true, diff: true });
  t.true(checked.changed);
  t.deepEqual(checked.diff, [{ header: 'install ethtool', before: 'ethtool: absent\n', after: 'ethtool: installed\n' }]);
  t.regex(await sh("dpkg-query -W -f '${Status}' ethtool || true"), /not-installed|config-files/, 'check mode installed nothing');
});

test.serial('wait_for: one exec per wait, runs in check mode, times out clearly', async (t) => {
  let e0 = tr.stats.execs;
  const r = await run('wait_for', { port: 22, timeout: 5 }, { check: true });
  t.like(r, { changed: false });
  t.is(tr.stats.execs - e0, 1);
  await sh('rm -f /tmp/hw-wait; nohup sh -c "sleep 2; touch /tmp/hw-wait" >/dev/null 2>&1 &');
  e0 = tr.stats.execs;
  const w = await run('wait_for', { path: '/tmp/hw-wait', timeout: 10 });
  t.is(tr.stats.execs - e0, 1, 'the loop ran on the host in one exec');
  t.true((w.elapsed as number) >= 1 && !w.failed);
  t.true((await run('wait_for', { command: 'test -e /tmp/hw-wait', timeout: 2 })).failed !== true);
  const to = await run('wait_for', { port: 1, timeout: 1 });
  t.like(to, { failed: true, msg: 'Timeout when waiting for 127.0.0.1:1 to open' });
});

test.serial('converge-again of every probing module: all probes in one exec, no change planned', async (t) => {
  const tasks: [string, Record<string, unknown>][] = [
    ['file', { path: '/srv/hw/dir', state: 'directory', mode: '0750' }],
    ['copy', { dest: '/srv/hw/a.conf', src: 'a.conf', mode: '0640' }],
    ['template', { src: 'dns.conf.j2', dest: '/etc/NetworkManager/conf.d/90-hostwire-dns.conf' }],
    ['lineinfile', { path: '/etc/default/openvswitch-switch', regexp: '^#? ?OVS_CTL_OPTS=', line: "OVS_CTL_OPTS='--no-mlockall'" }],
    ['ini_file', { path: '/etc/NetworkManager/NetworkManager.conf', section: 'ifupdown', option: 'managed', value: 'true', no_extra_spaces: true }],
    ['sysctl', { name: 'net.ipv4.ip_forward', value: 1 }],
    ['systemd_unit', { name: 'hwlab2.service', content: UNIT }],
    ['service', { name: 'hwlab2.service', state: 'started' }],
    ['package', { name: 'iputils-ping' }],
  ];
  const h = newHostState(tr.name, {});
  h.transport = tr;
  const ctx = { host: tr.name, transport: tr, check: false, diff: false, vars, baseDir: base, deferred: h.deferred, render: (s: string) => s.replace('{{ dns_mode }}', vars.dns_mode) } as unknown as ModuleContext;
  const planned = tasks.map(([name, raw]) => {
    const mod = getModule(name)!;
    const args = mod.args.parse(raw);
    return { name, mod, args, probe: mod.probe!(args, ctx) };
  });
  const e0 = tr.stats.execs;
  await runProbeBatch(h, planned.map((p) => p.probe));
  for (const p of planned) {
    const state = await readProbe(h, p.probe);
    t.deepEqual(p.mod.plan!(state, p.args, ctx), [], `${p.name}: converged`);
  }
  t.is(tr.stats.execs - e0, 1, `${planned.length} module probes read in one exec`);
});
