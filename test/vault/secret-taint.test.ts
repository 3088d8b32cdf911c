// Values derived from a secret are secret (issue 18, "host keys and secrets"): upper, b64encode,
// slicing, concatenation, a var built from a secret; a failing filter on a secret shows no detail of
// it; walking through a result that holds a secret does not make unrelated fields secret.
import test from 'ava';
import { BadInputError } from '../../src/errors.js';
import { readsSecret, renderValue, templatedVars } from '../../src/engine/vars/index.js';
import { addSecret, clearSecrets, MASK, maskText } from '../../src/vault/index.js';

const SECRET = 'correct-horse-battery-staple-42';
const b64 = Buffer.from(SECRET).toString('base64');

test.beforeEach(() => {
  clearSecrets();
  addSecret(SECRET);
});
test.after.always(() => clearSecrets());

function view() {
  return templatedVars({
    vault_pw: SECRET,
    derived: '{{ vault_pw | b64encode }}',
    creds: { user: 'admin', pw: SECRET },
  });
}

test.serial('filters, slices and concatenation of a secret are masked in every output', (t) => {
  const v = view();
  for (const [tpl, out] of [
    ['{{ vault_pw | upper }}', SECRET.toUpperCase()],
    ['{{ vault_pw | b64encode }}', b64],
    ['{{ vault_pw[0:10] }}', SECRET.slice(0, 10)],
    ['{{ vault_pw | reverse | join("") }}', [...SECRET].reverse().join('')],
    ['{{ vault_pw.replace("-", "_") }}', SECRET.replaceAll('-', '_')],
    ['{{ creds.pw | hash("sha1") }}', undefined],
    ['{{ creds | to_json | b64encode }}', undefined],
  ] as const) {
    const rendered = String(renderValue(tpl, v));
    if (out !== undefined) t.is(rendered, out, tpl);
    t.is(maskText(`value: ${rendered}`), `value: ${MASK}`, `${tpl} is masked`);
  }
  t.is(maskText(String(renderValue('pw={{ vault_pw | upper }};', v))), MASK, 'a string built around a derived value is masked whole');
});

test.serial('a var derived from a secret is secret, and so is what is derived from it again', (t) => {
  const v = view();
  t.is(v.derived, b64);
  t.is(maskText(b64), MASK);
  const again = String(renderValue('{{ derived | lower }}', templatedVars({ derived: b64 })));
  t.is(maskText(again), MASK, 'the content, not the name, carries the taint');
});

test.serial('a failing filter on a secret names the template, never the value', (t) => {
  const e = t.throws(() => renderValue('{{ vault_pw | from_json }}', view(), { file: 'site.yml', line: 7 }), { instanceOf: BadInputError });
  t.regex(e!.message, /^site\.yml:7: .*reads a secret.*\{\{ vault_pw \| from_json \}\}/);
  for (let i = 0; i + 6 <= SECRET.length; i++) t.false(e!.message.includes(SECRET.slice(i, i + 6)), `no piece of the secret: ${e!.message}`);
  // The same error on a plain value still says what went wrong.
  const plain = t.throws(() => renderValue('{{ "not json" | from_json }}', view()), { instanceOf: BadInputError });
  t.regex(plain!.message, /JSON/);
});

test.serial('walking through a result that holds a secret keeps its other fields visible', (t) => {
  const v = templatedVars({ r: { cmd: 'cat /etc/app/credentials.conf', stdout: `pw=${SECRET}`, rc: 0 } });
  t.is(renderValue('{{ r.cmd | upper }}', v), 'CAT /ETC/APP/CREDENTIALS.CONF');
  t.is(maskText('CAT /ETC/APP/CREDENTIALS.CONF'), 'CAT /ETC/APP/CREDENTIALS.CONF');
  t.is(maskText(String(renderValue('{{ r.stdout | b64encode }}', v))), MASK);
});

test.serial('readsSecret tells the runner whether a task\'s args read a secret', (t) => {
  const v = view();
  t.true(readsSecret(() => renderValue({ dest: '/etc/app.conf', content: 'pw={{ derived }}\n' }, v)).secret);
  t.true(readsSecret(() => renderValue({ content: '{{ creds | to_json }}' }, v)).secret);
  t.false(readsSecret(() => renderValue({ dest: '/etc/app.conf', content: '{{ creds.user }}' }, v)).secret);
  t.is(maskText('/etc/app.conf'), '/etc/app.conf', 'the args that did not read the secret stay visible');
});
