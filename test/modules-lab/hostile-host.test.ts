// Issue 18 (critical): a hostile managed host cannot make the controller evaluate a template. The host's
// /etc/motd and /etc/os-release hold template syntax that names a controller file and a vault variable;
// a playbook registers and uses that text (register, a play var over it, a filter, set_fact, a loop item,
// a gathered fact) and writes it back with copy. Every written file must hold exactly the host's text,
// and neither the controller file nor the vault secret may reach the host or the run's output.
// Then a vaulted password changes: the --diff of the task that writes it, the report and the registered
// result must show neither the old password (read from the host) nor the new one.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labDown, labInventoryYaml, labUp } from '../../src/lab/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent } from '../../src/engine/runner/events.js';
import { createTransport } from '../../src/transports/index.js';
import type { Transport } from '../../src/transports/transport.js';
import { clearSecrets, encryptVault, setVaultPasswords } from '../../src/vault/index.js';
import { createReportCollector, renderReportHtml } from '../../src/report/index.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const DEADLINE_MS = 200_000;
const dir = mkdtempSync(path.join(tmpdir(), 'hw-h2-hostile-'));
const CONTROLLER_TEXT = `controller-private-${process.pid}-a9c1`;
const VAULT_SECRET = `vault-plaintext-${process.pid}-77e2`;
const VAULT_PASSWORD = 'lab-vault-password';
const OLD_APP_PASSWORD = `old-app-password-${process.pid}-3b1f`;
const NEW_APP_PASSWORD = `new-app-password-${process.pid}-c4d0`;
const controllerFile = path.join(dir, 'controller-private.txt');
writeFileSync(controllerFile, CONTROLLER_TEXT);

// What the host says: template syntax aimed at the controller (single quotes only: it goes into shell and YAML).
const MOTD = `{{ lookup('file', '${controllerFile}') }} {{ vault_db_password }}`;
const CODENAME = `{{ lookup('file', '${controllerFile}') }}`;

const PLAYBOOK = `
- hosts: all
  gather_facts: true
  vars_files: [secrets.yml]
  vars:
    relay: "{{ banner.stdout }}"
  tasks:
    - name: read the motd
      command: cat /etc/motd
      register: banner
    - name: write the registered stdout back
      copy: { content: "{{ banner.stdout }}", dest: /root/out-register }
    - name: through a play var and a filter
      copy: { content: "{{ relay | trim }}", dest: /root/out-relay }
    - name: concatenated
      copy: { content: "motd={{ banner.stdout ~ '' }}", dest: /root/out-concat }
    - name: keep the fact
      set_fact: { codename: "{{ ansible_distribution_release }}" }
    - name: the gathered fact through set_fact
      copy: { content: "{{ codename }}", dest: /root/out-fact }
    - name: each line as a loop item
      copy: { content: "{{ item }}", dest: /root/out-item }
      loop: "{{ banner.stdout_lines }}"
`;

const SECRET_CHANGE = `
- hosts: all
  gather_facts: false
  vars_files: [app-secrets.yml]
  tasks:
    - name: write the new password
      copy: { content: "user=app\\npassword={{ vault_app_password }}\\n", dest: /root/app.conf, mode: "0600" }
      register: written
    - name: show what was registered
      debug: { var: written }
`;

const vaultedVar = (name: string, value: string) => `${name}: !vault |\n    ${encryptVault(value, VAULT_PASSWORD).trimEnd().replace(/\n/g, '\n    ')}\n`;

let transport: Transport | undefined;

test.after.always(async () => {
  await transport?.close().catch(() => undefined);
  await labDown(LAB).catch(() => undefined);
  setVaultPasswords(undefined);
  clearSecrets();
  rmSync(dir, { recursive: true, force: true });
});

async function withDeadline<T>(what: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hostile-host lab test exceeded ${DEADLINE_MS / 1000} s`)), DEADLINE_MS);
  });
  try {
    return await Promise.race([what, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function sh(cmd: string): Promise<string> {
  const r = await transport!.exec(cmd);
  if (r.code !== 0) throw new Error(`rc=${r.code}: ${cmd}\n${r.stderr}`);
  return r.stdout;
}

test.serial('text from a hostile host is written back as it is (no controller file, no vault secret); a changed secret shows no diff', async (t) => {
  await withDeadline(
    (async () => {
      await labDown(LAB).catch(() => undefined);
      const up = await labUp({ name: LAB, hosts: 1 });
      const h = up.state.hosts[0]!;
      transport = createTransport(h.name, { host: h.ip, user: 'root', privateKeyFile: up.state.keyFile, knownHostsFile: up.state.knownHostsFile, netns: up.state.netns });
      await transport.connect();
      // The host turns hostile: its motd and its os-release codename are templates.
      await sh(`printf '%s\\n' "${MOTD}" > /etc/motd`);
      await sh(`grep -v '^VERSION_CODENAME=' /usr/lib/os-release > /etc/os-release.new && printf 'VERSION_CODENAME="%s"\\n' "${CODENAME}" >> /etc/os-release.new && mv -f /etc/os-release.new /etc/os-release`);

      writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(up.state));
      setVaultPasswords([VAULT_PASSWORD]);
      writeFileSync(path.join(dir, 'secrets.yml'), vaultedVar('vault_db_password', VAULT_SECRET));
      writeFileSync(path.join(dir, 'site.yml'), PLAYBOOK);

      const events: RunEvent[] = [];
      const summary = await runPlaybook({ playbook: path.join(dir, 'site.yml'), inventory: [path.join(dir, 'inventory.yml')], retryFile: false, onEvent: (e) => events.push(e) });
      const failures = events.flatMap((e) => (e.type === 'host_result' && e.result.status !== 'ok' && e.result.status !== 'changed' ? [`${e.task.name}: ${e.result.status} ${e.result.msg}`] : []));
      t.is(summary.exitCode, 0, failures.join('\n'));

      t.is(await sh('cat /root/out-register'), MOTD, 'the registered stdout, exactly');
      t.is(await sh('cat /root/out-relay'), MOTD, 'through a play var and a filter');
      t.is(await sh('cat /root/out-concat'), `motd=${MOTD}`, 'concatenated');
      t.is(await sh('cat /root/out-item'), MOTD, 'as a loop item');
      t.is(await sh('cat /root/out-fact'), CODENAME, 'ansible_distribution_release, via set_fact');
      // Nothing of the controller's reached the host, anywhere it could have been written.
      const leaked = await sh(`grep -rlF -e '${CONTROLLER_TEXT}' -e '${VAULT_SECRET}' /root /etc /tmp /var/tmp 2>/dev/null || true`);
      t.is(leaked, '', 'no file on the host holds the controller file or the vault secret');
      const output = JSON.stringify(events);
      t.false(output.includes(CONTROLLER_TEXT), 'the run output never shows the controller file');
      t.false(output.includes(VAULT_SECRET), 'nor the vault secret');

      // The password changes: the host holds the old one, the vault the new one.
      await sh(`printf 'user=app\\npassword=%s\\n' '${OLD_APP_PASSWORD}' > /root/app.conf`);
      writeFileSync(path.join(dir, 'app-secrets.yml'), vaultedVar('vault_app_password', NEW_APP_PASSWORD));
      writeFileSync(path.join(dir, 'change.yml'), SECRET_CHANGE);
      const report = createReportCollector();
      const changeEvents: RunEvent[] = [];
      const changed = await runPlaybook({ playbook: path.join(dir, 'change.yml'), inventory: [path.join(dir, 'inventory.yml')], retryFile: false, diff: true, onEvent: (e) => (changeEvents.push(e), report.listener(e)) });
      t.is(changed.exitCode, 0);
      t.is(await sh('cat /root/app.conf'), `user=app\npassword=${NEW_APP_PASSWORD}\n`, 'the new password was written');
      const write = changeEvents.find((e) => e.type === 'host_result' && e.task.name === 'write the new password');
      t.is(write?.type === 'host_result' ? write.result.status : undefined, 'changed');
      const shown = JSON.stringify(changeEvents) + renderReportHtml(report.data());
      t.false(shown.includes(OLD_APP_PASSWORD), 'the old password is in no diff, no registered result, not in the report');
      t.false(shown.includes(NEW_APP_PASSWORD), 'nor the new one');
      t.true(shown.includes('hidden: the task uses a secret'), 'the diff says why it is hidden');
    })(),
  );
});
