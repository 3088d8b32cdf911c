// selinux and seboolean judged from selinuxfs and config files recorded on a lab host (the results
// are compared with ansible-playbook's in src/modules/selinux/cases): the config file rewritten
// byte for byte as the module left it, one atomic write keeping mode and owner, the runtime paths a
// host with SELinux takes, and seboolean's answers.
import test from 'ava';
import { getModule } from '../../src/modules/all.js';
import { planSelinux, type SelinuxHave } from '../../src/modules/selinux/plan.js';
import type { SelinuxArgs } from '../../src/modules/selinux/selinux.js';
import { planSeboolean, type SebooleanArgs } from '../../src/modules/selinux/seboolean.js';
import { parseConfig, parsePersistent, parseRuntime } from '../../src/modules/selinux/read.js';
import { loadCase } from './net-cases.js';

const selinux = (a: Record<string, unknown>) => getModule('selinux')!.args.parse(a) as SelinuxArgs;
const seboolean = (a: Record<string, unknown>) => getModule('seboolean')!.args.parse(a) as SebooleanArgs;

function recorded(name: string) {
  const c = loadCase('selinux', name) as unknown as { stdout: string; args: Record<string, unknown>; config_before: string; config_after: string };
  const config = parseConfig(c.stdout, 'config');
  const have: SelinuxHave = { runtime: parseRuntime(c.stdout), config, system: config, policyInstalled: false };
  return { c, have, args: selinux(c.args) };
}

test('the config file is rewritten as the module left it, in one write keeping its mode and owner', (t) => {
  for (const name of ['disabled-from-permissive', 'enforcing-needs-reboot']) {
    const { c, have, args } = recorded(name);
    t.is(have.config?.text, c.config_before, `${name}: the file is read whole`);
    const plan = planSelinux(have, args, false);
    t.deepEqual(plan.changes.map((ch) => ch.write && { ...ch.write }), [{ path: '/etc/selinux/config', content: c.config_after, mode: '0644', owner: 'root', group: 'root' }], name);
  }
  const same = recorded('disabled-unchanged');
  t.deepEqual(planSelinux(same.have, same.args, false).changes, []);
});

test('a host with SELinux running: setenforce through selinuxfs, disabled waits for a reboot', (t) => {
  const config = { mode: '644', owner: 'root', group: 'root', text: 'SELINUX=enforcing\nSELINUXTYPE=targeted\n' };
  const have: SelinuxHave = { runtime: 'enforcing', config, system: config, policyInstalled: true };
  const permissive = planSelinux(have, selinux({ state: 'permissive', policy: 'targeted' }), false);
  t.like(permissive.result, { changed: true, msg: "SELinux state changed from 'enforcing' to 'permissive', Config SELinux state changed from 'enforcing' to 'permissive'", reboot_required: false });
  t.deepEqual(permissive.changes.flatMap((c) => c.run), ['printf %s 0 > /sys/fs/selinux/enforce']);
  const off = planSelinux(have, selinux({ state: 'disabled' }), false);
  t.like(off.result, { changed: true, reboot_required: true, warnings: ["SELinux state temporarily changed from 'enforcing' to 'permissive'. State change will take effect next reboot."] });
  // The policy differs from the running one: under --check the module leaves with changed alone.
  t.deepEqual(planSelinux(have, selinux({ state: 'enforcing', policy: 'mls' }), true).result, { changed: true });
  t.like(planSelinux({ ...have, policyInstalled: true }, selinux({ state: 'enforcing', policy: 'mls' }), false).result, {
    msg: "Running SELinux policy changed from 'targeted' to 'mls', SELinux policy configuration in '/etc/selinux/config' changed from 'targeted' to 'mls'",
  });
});

test('selinux refuses what it does not build and bad names', (t) => {
  t.false(getModule('selinux')!.args.safeParse({ state: 'enforcing', policy: 'x; rm -rf /' }).success);
  t.is(selinux({ state: 'disabled', conf: '/etc/other' }).configfile, '/etc/other', 'conf and file are aliases');
});

test('the policy store read: "value state len" before each place the name occurs, the one whose length is the name\'s', (t) => {
  // Recorded on lab host se21a-1 (policy.kern of Debian's policy "default"): the name is also the start of longer names.
  const out = (rows: string) => `::sec persistent\n${rows}end\n::rc 0\n`;
  const rows = '         13          0         32\n          7          1         25\n          8          0         33\n';
  t.true(parsePersistent(out(rows), 'httpd_can_network_connect'));
  t.is(parsePersistent(out(rows.replace('1         25', '0         25')), 'httpd_can_network_connect'), false);
  t.is(parsePersistent(out('         13          0         32\n'), 'httpd_can_network_connect'), 'undefined');
  t.is(parsePersistent('::sec persistent\nunmanaged\n::rc 0\n', 'x'), 'unmanaged');
  t.throws(() => parsePersistent('::sec persistent\ngrep: oops\n::rc 2\n', 'x'), { message: /cannot read the policy store/ });
});

test("seboolean: SELinux off fails as the module does; a boolean's value judged and set through selinuxfs", (t) => {
  const a = seboolean({ name: 'httpd_can_network_connect', state: 'yes' });
  t.deepEqual(planSeboolean({ runtime: 'disabled' }, a).result, { changed: false, failed: true, msg: 'SELinux is disabled on this host.' });
  t.deepEqual(planSeboolean({ runtime: 'disabled' }, seboolean({ name: 'x', state: true, ignore_selinux_state: true })).result.msg, 'Failed to get list of boolean names');
  t.deepEqual(planSeboolean({ runtime: 'enforcing' }, a).result.msg, 'SELinux boolean httpd_can_network_connect does not exist.');
  t.deepEqual(planSeboolean({ runtime: 'enforcing', value: true }, a), { result: { name: 'httpd_can_network_connect', persistent: false, state: true, changed: false } });
  const off = planSeboolean({ runtime: 'permissive', value: true }, seboolean({ name: 'httpd_can_network_connect', state: false }));
  t.deepEqual(off.change?.run, ["printf %s 0 > /sys/fs/selinux/booleans/httpd_can_network_connect && printf 1 > /sys/fs/selinux/commit_pending_bools"]);
  const persist = seboolean({ name: 'httpd_can_network_connect', state: true, persistent: true });
  const persistent = planSeboolean({ runtime: 'permissive', value: true, stored: false }, persist);
  t.deepEqual(persistent.change?.run, ['setsebool -P -- httpd_can_network_connect on'], 'persistent is judged by the store, not the runtime value');
  t.false(planSeboolean({ runtime: 'permissive', value: false, stored: true }, persist).result.changed);
  t.is(planSeboolean({ runtime: 'permissive', value: false, stored: 'unmanaged' }, persist).result.msg, 'Cannot set persistent booleans without managed policy');
  t.is(planSeboolean({ runtime: 'permissive', value: false, stored: 'undefined' }, persist).result.msg, 'SELinux boolean httpd_can_network_connect is not defined in persistent policy');
  t.false(getModule('seboolean')!.args.safeParse({ name: '../x', state: true }).success, 'a boolean name is a name, never a path');
});
