import test from 'ava';
import { readFileSync } from 'node:fs';
import { parseShow } from '../../src/modules/kit/unit-status.js';
import { planSystemd } from '../../src/modules/systemd/plan.js';
import { getModule } from '../../src/modules/all.js';

// Recorded `systemctl show` output of real units (the service module's cases).
const load = (name: string) => parseShow(JSON.parse(readFileSync(new URL(`../../../src/modules/service/cases/${name}.json`, import.meta.url), 'utf8')));
const schema = getModule('systemd')!.args;
const args = (a: Record<string, unknown>) => schema.parse(a);
const refusal = (a: Record<string, unknown>) => {
  const r = schema.safeParse(a);
  return r.success ? '' : r.error.issues.map((i) => i.message).join('; ');
};

test('systemd_service is the same module; aliases and yes/no booleans as Ansible reads them', (t) => {
  t.truthy(getModule('systemd_service'));
  t.like(args({ unit: 'ssh', enabled: 'yes', 'daemon-reload': 'on' }), { name: 'ssh', enabled: true, daemon_reload: true, daemon_reexec: false, scope: 'system', no_block: false });
  t.like(args({ service: 'ssh', state: 'started' }), { name: 'ssh' });
});

test('required_one_of, required_by, globs and scopes are refused with Ansible\'s words', (t) => {
  t.regex(refusal({ name: 'ssh' }), /one of the following is required: state, enabled, masked, daemon_reload, daemon_reexec/);
  t.regex(refusal({ state: 'started' }), /missing parameter\(s\) required by 'state': name/);
  t.regex(refusal({ name: 'ovs*', state: 'started' }), /does not currently support using glob patterns, found '\*' in service name: ovs\*/);
  t.is(refusal({ name: 'ssh', enabled: true, scope: 'global' }), '');
  t.is(refusal({ name: 'ssh', state: 'started', scope: 'user' }), '');
  t.regex(refusal({ name: 'ssh; reboot', state: 'started' }), /expected a unit name/);
  t.is(refusal({ daemon_reexec: true }), '');
});

test('daemon_reload and daemon_reexec without a name run and report no change, as systemd.py', (t) => {
  const p = planSystemd(undefined, args({ daemon_reload: true, daemon_reexec: true }), 'h');
  t.deepEqual(p.commands, ['systemctl daemon-reload', 'systemctl daemon-reexec']);
  t.deepEqual(p.result, { name: null, changed: false, status: {} });
});

test('a converged unit: no command, Ansible\'s result with status, enabled and state', (t) => {
  const p = planSystemd(load('running-enabled'), args({ name: 'ssh', state: 'started', enabled: true }), 'h');
  t.deepEqual(p.commands, []);
  t.like(p.result, { name: 'ssh', changed: false, enabled: true, state: 'started', status: { ActiveState: 'active', UnitFileState: 'enabled', LoadState: 'loaded' } });
  t.deepEqual(planSystemd(load('disabled-inactive'), args({ name: 'x', state: 'stopped', enabled: false }), 'h').commands, []);
});

test('mask, enable, then the run state, with --no-block and --force as systemd.py adds them', (t) => {
  const p = planSystemd(load('disabled-inactive'), args({ name: 'ovn-central', state: 'started', enabled: true, no_block: true, force: true }), 'h');
  t.deepEqual(p.commands, ['systemctl --no-block --force enable -- ovn-central', 'systemctl --no-block --force start -- ovn-central']);
  t.like(p.result, { changed: true, enabled: true, state: 'started' });
  t.deepEqual(planSystemd(load('masked'), args({ name: 'console-getty', masked: false }), 'h').commands, ['systemctl unmask -- console-getty']);
  t.deepEqual(planSystemd(load('running-enabled'), args({ name: 'ssh', masked: true }), 'h').commands, ['systemctl mask -- ssh']);
});

test('restarted/reloaded always act, start a stopped unit and register state started', (t) => {
  const r = planSystemd(load('running-enabled'), args({ name: 'ssh', state: 'reloaded' }), 'h');
  t.deepEqual(r.commands, ['systemctl reload -- ssh']);
  t.is(r.result.state, 'started');
  t.deepEqual(planSystemd(load('disabled-inactive'), args({ name: 'x', state: 'restarted' }), 'h').commands, ['systemctl start -- x']);
});

test('indirect and alias units count as not enabled (systemd.py reads is-enabled so)', (t) => {
  const s = { ...load('running-enabled'), unitFileState: 'indirect' };
  t.deepEqual(planSystemd(s, args({ name: 'x', enabled: true }), 'h').commands, ['systemctl enable -- x']);
  t.deepEqual(planSystemd({ ...s, unitFileState: 'static' }, args({ name: 'x', enabled: true }), 'h').commands, []);
});

test('a missing unit fails as Ansible\'s fail_if_missing; a pending reload runs first, once', (t) => {
  t.throws(() => planSystemd(load('not-found'), args({ name: 'nope', state: 'started' }), 'h'), { message: 'Could not find the requested service nope: host' });
  t.deepEqual(planSystemd(load('not-found'), args({ name: 'nope', state: 'started' }), 'h', true).commands, ['systemctl daemon-reload', 'systemctl start -- nope']);
  t.deepEqual(planSystemd(load('need-reload'), args({ name: 'hwrec', state: 'restarted' }), 'h').commands, ['systemctl daemon-reload', 'systemctl restart -- hwrec']);
  t.deepEqual(planSystemd(load('need-reload'), args({ name: 'hwrec', state: 'restarted', daemon_reload: true }), 'h').commands, ['systemctl daemon-reload', 'systemctl restart -- hwrec']);
  t.throws(() => planSystemd(load('no-systemctl'), args({ name: 'ssh', state: 'started' }), 'h1'), { message: /systemctl/ });
});

test('scope user: systemctl --user with XDG_RUNTIME_DIR as systemd.py sets it; the system\'s pending reload is not its own', (t) => {
  const user = (a: Record<string, unknown>) => args({ scope: 'user', ...a });
  const x = 'XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/run/user/$(id -u)}" systemctl --user';
  t.deepEqual(planSystemd(load('disabled-inactive'), user({ name: 'syncthing', state: 'started', enabled: true, no_block: true }), 'h').commands,
    [`${x} --no-block enable -- syncthing`, `${x} --no-block start -- syncthing`]);
  t.deepEqual(planSystemd(undefined, user({ daemon_reload: true }), 'h').commands, [`${x} daemon-reload`]);
  t.deepEqual(planSystemd(load('need-reload'), user({ name: 'hwrec', state: 'restarted' }), 'h', true).commands, [`${x} daemon-reload`, `${x} restart -- hwrec`]);
  t.throws(() => planSystemd(load('not-found'), user({ name: 'nope', state: 'started' }), 'h', true), { message: /Could not find the requested service nope/ });
  const read = getModule('systemd')!.readsAhead!(user({ name: 'syncthing', state: 'started' }))[0]!;
  t.regex(read.command, /XDG_RUNTIME_DIR="\$\{XDG_RUNTIME_DIR:-\/run\/user\/\$\(id -u\)\}" systemctl --user show -p LoadState,ActiveState,SubState,UnitFileState,NeedDaemonReload -- syncthing/);
  t.is(read.merge, undefined, 'not merged with the system manager\'s reads');
});
