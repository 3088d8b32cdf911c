// group on a real lab host: converge (groupadd with gid), again changed=0, drift (gid changed by hand)
// seen by --check without touching the host and fixed by a run, absent removes; the result's keys and
// values as ansible-core 2.14's group registered them for the same tasks on a lab host.
import test from 'ava';
import { convergePlay, labModuleTest } from '../helpers/lab-converge.js';
import { testLabName } from '../helpers/lab-name.js';

const lab = labModuleTest(testLabName(import.meta.url));

const play = (state: string) => `
- hosts: all
  gather_facts: false
  tasks:
    - name: g
      ansible.builtin.group: { name: mfops, gid: 4701, state: ${state} }
    - name: s
      group: name=mfsys system=yes state=${state}
`;

test('group on a lab host: converge, changed=0 again, --check sees drift and leaves it, absent removes', async (t) => {
  t.timeout(4 * 60_000);
  const { host, play: run } = await lab.up();
  const groups = () => host.sh('getent group mfops mfsys || true');
  const { checked, first } = await convergePlay(t, run, 'converge', play('present'), { state: groups });
  t.deepEqual(checked!.result('g'), { outcome: 'changed', changed: true, failed: false });
  t.deepEqual(first.result('g'), { outcome: 'changed', name: 'mfops', state: 'present', changed: true, failed: false, system: false, gid: 4701 });
  t.is(await host.sh('getent group mfops'), 'mfops:x:4701:\n');
  t.true(Number((await host.sh('getent group mfsys')).split(':')[2]) < 1000, 'a system group takes a system gid');

  await host.sh('groupmod -g 4702 mfops');
  const drift = await run('drift', play('present'), { check: true });
  t.like(drift.result('g'), { outcome: 'changed', gid: 4702 });
  t.is(await host.sh('getent group mfops'), 'mfops:x:4702:\n', '--check left the drift');
  await run('fix', play('present'));
  t.is(await host.sh('getent group mfops'), 'mfops:x:4701:\n');

  const { first: gone } = await convergePlay(t, run, 'absent', play('absent'), { state: groups });
  t.deepEqual(gone.result('g'), { outcome: 'changed', name: 'mfops', state: 'absent', changed: true, failed: false });
  t.is(await host.sh('getent group mfops mfsys || echo none'), 'none\n');
});
