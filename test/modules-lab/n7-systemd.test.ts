// systemd on a real lab host (a unit of its own): converge, no-op (changed=0), --check predicts and
// leaves the unit alone, daemon_reload without a name, and Ansible's registered result.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labInventoryYaml } from '../../src/lab/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent, RunSummary } from '../../src/engine/runner/events.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-n7sysd-'));
let host: LabHost | undefined;

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function play(name: string, yaml: string, check = false): Promise<{ summary: RunSummary; result(task: string): Record<string, any> }> {
  const playbook = path.join(dir, `${name}.yml`);
  writeFileSync(playbook, yaml);
  const events: RunEvent[] = [];
  const summary = await runPlaybook({ playbook, inventory: [path.join(dir, 'inventory.yml')], check, retryFile: false, onEvent: (e) => events.push(e) });
  const failed = events.flatMap((e) => (e.type === 'host_result' && e.result.status === 'failed' ? [`${e.task.name}: ${e.result.msg}`] : []));
  if (summary.exitCode !== 0) throw new Error(`${name}: exit ${summary.exitCode}\n${failed.join('\n')}`);
  const result = (task: string) => {
    const e = events.find((x) => x.type === 'host_result' && x.task.name === task);
    if (!e || e.type !== 'host_result') throw new Error(`no result for ${task}`);
    // `outcome`: the module registers a `status` of its own.
    return { outcome: e.result.status, ...(e.result.result as Record<string, unknown>) };
  };
  return { summary, result };
}

const UNIT = '[Unit]\nDescription=n7 demo\n[Service]\nExecStart=/bin/sleep infinity\n[Install]\nWantedBy=multi-user.target\n';

const CONVERGE = `
- hosts: all
  gather_facts: false
  tasks:
    - name: reload alone
      ansible.builtin.systemd: { daemon_reload: true }
    - name: unit
      systemd_service: { name: n7demo, state: started, enabled: yes }
      register: u
`;

const STOP = `
- hosts: all
  gather_facts: false
  tasks:
    - name: stop
      systemd: name=n7demo state=stopped enabled=no
      register: s
`;

test.serial('systemd converges a unit of its own, re-runs with changed=0, --check changes nothing', async (t) => {
  t.timeout(4 * 60_000);
  host = await labHost(LAB);
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  const name = host.state.hosts[0].name;
  // The unit file appears behind systemd's back: only the name-less daemon_reload makes it known.
  await host.sh(`printf '${UNIT.replace(/\n/g, '\\n')}' > /etc/systemd/system/n7demo.service`);
  const state = () => host!.sh('systemctl is-active n7demo; systemctl is-enabled n7demo; true');

  const first = await play('converge', CONVERGE);
  t.like(first.result('reload alone'), { outcome: 'ok', changed: false, name: null });
  t.like(first.result('unit'), { outcome: 'changed', name: 'n7demo', enabled: true, state: 'started' });
  t.is(first.summary.stats[name].changed, 1);
  t.is(await state(), 'active\nenabled\n');

  const again = await play('again', CONVERGE);
  t.is(again.summary.stats[name].changed, 0, 'second run changed=0');
  t.like(again.result('unit'), { outcome: 'ok', enabled: true, state: 'started' });
  t.like(again.result('unit'), { status: { ActiveState: 'active', UnitFileState: 'enabled' } });

  const checked = await play('stop-check', STOP, true);
  t.like(checked.result('stop'), { outcome: 'changed', enabled: false, state: 'stopped' });
  t.is(await state(), 'active\nenabled\n', '--check left the unit running and enabled');

  const stopped = await play('stop', STOP);
  t.like(stopped.result('stop'), { outcome: 'changed' });
  t.is(await state(), 'inactive\ndisabled\n');
  t.is((await play('stop-again', STOP)).summary.stats[name].changed, 0);
});

// scope: user - root's own manager (lingering), a unit in ~/.config/systemd/user; XDG_RUNTIME_DIR is not
// exported by the test: the module defaults it to /run/user/<uid> as systemd.py does.
const USER_PLAY = (state: string, enabled: string) => `
- hosts: all
  gather_facts: false
  tasks:
    - name: user unit
      ansible.builtin.systemd: { name: n7user, scope: user, state: ${state}, enabled: ${enabled}, daemon_reload: true }
`;

test.serial('systemd scope user: the user manager\'s unit converges, re-runs with changed=0, --check changes nothing', async (t) => {
  t.timeout(4 * 60_000);
  host ??= await labHost(LAB);
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  const name = host.state.hosts[0].name;
  await host.sh('loginctl enable-linger root; for i in $(seq 1 30); do [ -S /run/user/0/systemd/private ] && break; sleep 1; done; mkdir -p /root/.config/systemd/user');
  await host.sh(`printf '${UNIT.replace('multi-user.target', 'default.target').replace(/\n/g, '\\n')}' > /root/.config/systemd/user/n7user.service`);
  const state = () => host!.sh('export XDG_RUNTIME_DIR=/run/user/0; systemctl --user is-active n7user; systemctl --user is-enabled n7user; systemctl is-enabled n7user 2>&1; true');

  const first = await play('user', USER_PLAY('started', 'true'));
  t.like(first.result('user unit'), { outcome: 'changed', name: 'n7user', enabled: true, state: 'started' });
  t.regex(await state(), /^active\nenabled\n.*(not-found|No such file)/s, 'the user manager runs it; the system manager does not know it');
  t.is((await play('user-again', USER_PLAY('started', 'true'))).summary.stats[name].changed, 0, 'second run changed=0');

  const checked = await play('user-check', USER_PLAY('stopped', 'false'), true);
  t.like(checked.result('user unit'), { outcome: 'changed', enabled: false, state: 'stopped' });
  t.regex(await state(), /^active\nenabled\n/, '--check left it running and enabled');
  t.like((await play('user-stop', USER_PLAY('stopped', 'false'))).result('user unit'), { outcome: 'changed' });
  t.regex(await state(), /^inactive\ndisabled\n/);
});

// scope: global - every user's unit files (systemctl --global): enable/disable and mask/unmask act there
// (a vendor unit, ssh-agent.service in /usr/lib/systemd/user, can be masked); no manager runs them.
const GLOBAL_PLAY = (enabled: string, masked: string) => `
- hosts: all
  gather_facts: false
  tasks:
    - name: global unit
      ansible.builtin.systemd: { name: n7global, scope: global, enabled: ${enabled} }
    - name: global vendor mask
      systemd: { name: ssh-agent, scope: global, masked: ${masked} }
`;

test.serial('systemd scope global: enable and mask every user\'s unit files, changed=0 again, --check changes nothing', async (t) => {
  t.timeout(4 * 60_000);
  host ??= await labHost(LAB);
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  const name = host.state.hosts[0].name;
  await host.sh(`mkdir -p /etc/systemd/user; printf '${UNIT.replace('multi-user.target', 'default.target').replace(/\n/g, '\\n')}' > /etc/systemd/user/n7global.service`);
  const state = () => host!.sh('systemctl --global is-enabled n7global; systemctl --global is-enabled ssh-agent; true');
  t.is(await state(), 'disabled\nstatic\n');

  const first = await play('global', GLOBAL_PLAY('true', 'true'));
  t.like(first.result('global unit'), { outcome: 'changed', name: 'n7global', enabled: true });
  t.like(first.result('global vendor mask'), { outcome: 'changed', name: 'ssh-agent' });
  t.is(await state(), 'enabled\nmasked\n');
  t.is(await host.sh('readlink /etc/systemd/user/default.target.wants/n7global.service /etc/systemd/user/ssh-agent.service'), '/etc/systemd/user/n7global.service\n/dev/null\n');
  t.is((await play('global-again', GLOBAL_PLAY('true', 'true'))).summary.stats[name].changed, 0, 'second run changed=0');

  const checked = await play('global-check', GLOBAL_PLAY('false', 'false'), true);
  t.like(checked.result('global unit'), { outcome: 'changed', enabled: false });
  t.is(await state(), 'enabled\nmasked\n', '--check left them enabled and masked');
  await play('global-undo', GLOBAL_PLAY('false', 'false'));
  t.is(await state(), 'disabled\nstatic\n');
});
