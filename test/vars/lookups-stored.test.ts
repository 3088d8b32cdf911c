// The password, template and config lookups. Seeded passwords, stored salts and hashes were recorded
// with ansible-core 2.14.18 (passlib 1.7) on this machine: lookup_loader.get('password').run(...).
import test from 'ava';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderValue } from '../../src/engine/vars/index.js';
import { PyRandom } from '../../src/engine/vars/py-random.js';

const dir = mkdtempSync(join(tmpdir(), 'hw-stored-'));
mkdirSync(join(dir, 'templates'));
writeFileSync(join(dir, 'templates', 't.j2'), 'Hello {{ who }} {{ n + 1 }}\n{% for i in range(n) %}{{ i }}{% endfor %}\n{{ extra | default("none") }} {{ template_path | basename }}\n');
writeFileSync(join(dir, 'templates', 'bad.j2'), 'line one\n{{ nope }}\n');
const vars = { playbook_dir: dir, who: 'w1', n: 3 };
const r = (s: string): unknown => renderValue(s, vars);

test('Python random.Random(seed).choice, as the password lookup draws with seed=', (t) => {
  const draw = (n: number, chars: string, seed: string): string => {
    const g = new PyRandom(seed);
    return Array.from({ length: n }, () => g.choice([...chars])).join('');
  };
  t.is(draw(12, 'abcdefghijklmnopqrstuvwxyz0123456789', 'myseed'), '0tkmnw6g4ur0');
  t.is(draw(20, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:-_', 'host1'), '.FxC8RS71Bo:2EJEIe:e');
  t.is(draw(8, Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).join(''), 'a'.repeat(300)), '*z%#=q^"');
  t.is(draw(6, 'abc', '5'), 'bbccac');
});

test('password: created once (0700 folder, 0600 file), then read back; seed= gives Ansible\'s password', (t) => {
  t.is(r("{{ lookup('password', 'creds/p1 length=10 chars=digits seed=s1') }}"), '9804679229');
  const file = join(dir, 'creds', 'p1');
  t.is(readFileSync(file, 'utf8'), '9804679229\n');
  t.is(statSync(file).mode & 0o777, 0o600);
  t.is(statSync(join(dir, 'creds')).mode & 0o777, 0o700);
  t.is(r("{{ lookup('password', 'creds/p1 length=30') }}"), '9804679229', 'an existing file wins over new parameters');
  t.is(r("{{ lookup('password', 'creds/p3 chars=ascii_lowercase,,,digits length=5 seed=x') }}"), 't3dx2', "',,' is a comma");
  const fresh = r("{{ lookup('password', 'creds/p5') }}") as string;
  t.regex(fresh, /^[A-Za-z0-9.,:_-]{20}$/);
});

test('password encrypt=: a salt is stored beside the password and the hash is passlib\'s', (t) => {
  writeFileSync(join(dir, 'p6'), '9804679229 salt=ksfVC0IJgzf/Wpa7\n');
  t.is(r("{{ lookup('password', 'p6 encrypt=sha512_crypt') }}"), '$6$rounds=656000$ksfVC0IJgzf/Wpa7$U.Enp0tbOGgWYQiwdTuaDwAJsxseBISjjcXlnalcWXAtV1DF684hoVYsMesnXczvZYD/NlWdB3N89NeHOWqx41');
  t.is(r("{{ lookup('password', 'p6') }}"), '9804679229', 'without encrypt the plain password');
  writeFileSync(join(dir, 'p7'), 'fixedpw\n');
  const hashed = r("{{ lookup('password', 'p7 encrypt=md5_crypt') }}") as string;
  const stored = readFileSync(join(dir, 'p7'), 'utf8');
  t.regex(stored, /^fixedpw salt=[./0-9A-Za-z]{8}\n$/, 'the new salt is saved for the next run');
  t.is(r("{{ lookup('password', 'p7 encrypt=md5_crypt') }}"), hashed, 'idempotent');
  t.throws(() => r("{{ lookup('password', 'p8 foo=1') }}"), { message: /Unrecognized parameter\(s\) given to password lookup: foo/ });
  t.throws(() => r("{{ lookup('password', 'p6 encrypt=md5_crypt') }}"), { message: /salt too large \(md5_crypt requires <= 8 chars\)/ });
});

// Outputs as ansible-core 2.14 rendered the same file (trim_blocks eats the newline after endfor).
test('template: renders a templates/ file with the task vars, template_vars and template_path', (t) => {
  t.is(r("{{ lookup('template', 't.j2') }}"), 'Hello w1 4\n012none t.j2\n');
  t.is(r("{{ lookup('template', 't.j2', template_vars={'extra': 'E'}) }}"), 'Hello w1 4\n012E t.j2\n');
  t.throws(() => r("{{ lookup('template', 'nope.j2') }}"), { message: /the template file nope.j2 could not be found for the lookup/ });
  t.throws(() => r("{{ lookup('template', 'bad.j2') }}"), { message: /bad\.j2.*undefined variable 'nope'/ });
});

test('template: its output is data, not rendered again', (t) => {
  writeFileSync(join(dir, 'templates', 'raw.j2'), "{% raw %}{{ who }}{% endraw %}\n");
  t.is(r("{{ lookup('template', 'raw.j2') }}"), '{{ who }}\n');
});

test('config: settings hostwire reads, with ansible-core\'s defaults; unknown ones as on_missing says', (t) => {
  const saved = { ...process.env };
  t.teardown(() => {
    process.env = saved;
  });
  writeFileSync(join(dir, 'ansible.cfg'), '[privilege_escalation]\nbecome_user = admin\n');
  process.env.ANSIBLE_CONFIG = join(dir, 'ansible.cfg');
  delete process.env.ANSIBLE_FORKS;
  t.is(r("{{ lookup('config', 'DEFAULT_BECOME_USER') }}"), 'admin');
  t.is(r("{{ lookup('config', 'DEFAULT_BECOME_METHOD') }}"), 'sudo', "ansible-core's default");
  t.is(r("{{ lookup('config', 'DEFAULT_FORKS') }}"), '5', 'a lone number prints as text (Ansible 2.14)');
  process.env.ANSIBLE_FORKS = '7';
  t.is(r("{{ lookup('config', 'DEFAULT_FORKS') }}"), '7');
  t.throws(() => r("{{ lookup('config', 'NOPE_X') }}"), { message: /Unable to find setting NOPE_X/ });
  t.deepEqual(r("{{ query('config', 'NOPE_X', on_missing='skip') }}"), []);
});
