// VM tier: seboolean and selinux converged through hostwire on a host with SELinux on (lab up --vm-selinux:
// Debian's kernel booted with security=selinux enforcing=0, policy "default"), which nspawn hosts cannot be
// (they share the machine's kernel, which has no SELinux). --check predicts the changes and touches
// nothing, the run changes, the run again reports changed=0, --check again predicts nothing; then the
// boolean is read back on the host: at runtime (getsebool) and in the policy store (booleans.local).
import test from 'ava';
import { convergePlay } from '../helpers/lab-converge.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { labPlay } from '../helpers/lab-play.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { vmLabName } from './lab-name.js';

const LAB = vmLabName(import.meta.url);

const PLAY = `- hosts: all
  gather_facts: false
  tasks:
    - name: persistent boolean
      ansible.posix.seboolean:
        name: httpd_can_network_connect
        state: true
        persistent: true
    - name: runtime boolean
      ansible.posix.seboolean:
        name: allow_cvs_read_shadow
        state: true
    - name: selinux permissive
      ansible.posix.selinux:
        state: permissive
        policy: default
`;

// What the play manages: both booleans at runtime, the store's local values, the config, the mode.
const STATE = 'getsebool httpd_can_network_connect allow_cvs_read_shadow; grep -v "^#" /var/lib/selinux/default/active/booleans.local 2>/dev/null || true; grep -E "^SELINUX(TYPE)?=" /etc/selinux/config; getenforce';

test.serial('seboolean + selinux converge on a VM host with SELinux on (permissive): --check, run, again changed=0, --check again', async (t) => {
  t.timeout(25 * 60_000); // below the VM tier's 30 min
  const dir = mkdtempSync(path.join(tmpdir(), `hw-${LAB}-`));
  let host: LabHost | undefined;
  t.teardown(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const started = Date.now();
  host = await labHost(LAB, { vms: 1, vm: { selinux: true }, vmTimeoutMs: 15 * 60_000 });
  t.log(`SELinux VM up in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const h = host;
  t.is((await h.sh('getenforce')).trim(), 'Permissive');
  t.true(Number((await h.sh('getsebool -a | wc -l')).trim()) > 100, 'the policy has its booleans');
  // The config would turn enforcing on at the next boot; the play keeps it permissive.
  await h.sh("sed -i 's/^SELINUX=.*/SELINUX=enforcing/' /etc/selinux/config");
  const before = await h.sh(STATE);
  t.regex(before, /httpd_can_network_connect --> off\nallow_cvs_read_shadow --> off\n/);

  const play = labPlay(h, dir);
  const c = await convergePlay(t, play, 'selinux', PLAY, { state: () => h.sh(STATE) });
  t.deepEqual(['persistent boolean', 'runtime boolean', 'selinux permissive'].map((n) => c.checked!.result(n).changed), [true, true, true], '--check predicts all three');
  t.deepEqual(['persistent boolean', 'runtime boolean', 'selinux permissive'].map((n) => c.first.result(n).changed), [true, true, true]);
  t.is(c.first.result('selinux permissive').msg, "Config SELinux state changed from 'enforcing' to 'permissive'");
  t.false(c.first.result('selinux permissive').reboot_required);

  const after = await h.sh(STATE);
  t.log(after.trim());
  t.regex(after, /^httpd_can_network_connect --> on\nallow_cvs_read_shadow --> on\n/, 'both booleans on at runtime');
  t.regex(after, /^httpd_can_network_connect=1$/m, 'the persistent one in the policy store');
  t.notRegex(after, /allow_cvs_read_shadow=/, 'the runtime one not');
  t.regex(after, /^SELINUX=permissive\nSELINUXTYPE=default\nPermissive\n$/m);
  // The store, not the runtime value, is what persistent judges: off at runtime only, still converged.
  await h.sh('setsebool httpd_can_network_connect off');
  const again = await play('selinux-runtime-off', PLAY);
  t.false(again.result('persistent boolean').changed, 'persistent: the store says on, so unchanged (as ansible.posix.seboolean)');
  t.regex(await h.sh('getsebool httpd_can_network_connect'), /--> off/);
});
