// selinux and seboolean on a real lab host without SELinux (a Debian nspawn host: no selinuxfs, no
// config file): no config fails as the module does; with a config file, state converges in the file
// (one atomic write keeping its mode), re-runs with changed=0, --check predicts enforcing (and the
// reboot it needs) without touching the file; seboolean says SELinux is disabled.
import test from 'ava';
import type { LabHost } from '../helpers/lab-host.js';
import { labModuleTest } from '../helpers/lab-converge.js';
import type { LabPlay } from '../helpers/lab-play.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const lab = labModuleTest(LAB);
let host: LabHost | undefined;
let play: LabPlay;

test.before(async () => {
  ({ host, play } = await lab.up());
});

const SE = (state: string) => `
- hosts: all
  gather_facts: false
  tasks:
    - name: mode
      ansible.posix.selinux: { state: ${state}, policy: targeted }
      ignore_errors: true
    - name: bool
      ansible.posix.seboolean: { name: httpd_can_network_connect, state: true, persistent: true }
      ignore_errors: true
`;

test.serial('selinux converges the config file on a host without SELinux, seboolean says it is disabled', async (t) => {
  t.timeout(3 * 60_000);
  const none = await play('se-none', SE('disabled'));
  t.like(none.result('mode'), { outcome: 'failed', msg: 'Unable to find file /etc/selinux/config' });
  t.like(none.result('bool'), { outcome: 'failed', msg: 'SELinux is disabled on this host.' });
  await host!.sh("printf '# kept\\nSELINUX=permissive\\nSELINUXTYPE=targeted\\n' > /etc/selinux/config && chmod 640 /etc/selinux/config");
  const first = await play('se-first', SE('disabled'));
  t.like(first.result('mode'), { outcome: 'changed', msg: "Config SELinux state changed from 'permissive' to 'disabled'", reboot_required: false, policy: 'targeted' });
  const read = () => host!.sh('stat -c %a /etc/selinux/config; cat /etc/selinux/config');
  t.is(await read(), '640\n# kept\nSELINUX=disabled\nSELINUXTYPE=targeted\n');
  const again = await play('se-again', SE('disabled'));
  t.like(again.result('mode'), { outcome: 'ok', changed: false, msg: '' });
  const checked = await play('se-check', SE('enforcing'), { check: true, diff: true });
  t.like(checked.result('mode'), { outcome: 'changed', reboot_required: true, warnings: ["Reboot is required to set SELinux state to 'enforcing'"] });
  t.is(await read(), '640\n# kept\nSELINUX=disabled\nSELINUXTYPE=targeted\n', '--check left the file alone');
});
