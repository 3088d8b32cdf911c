// Masking rules: longest secret first, multi-line secrets line by line, short values left alone,
// keys and nested values, and secret vars named by the user.
import test from 'ava';
import { addSecret, clearSecrets, maskText, maskValue, MASK, registerSecretVars, hasSecrets } from '../../src/vault/index.js';

test.afterEach.always(() => clearSecrets());

test.serial('masks every occurrence, longest secret first', (t) => {
  addSecret('abcd');
  addSecret('abcd-efgh');
  t.is(maskText('x abcd-efgh y abcd z'), `x ${MASK} y ${MASK} z`);
});

test.serial('short values are never masked; numbers are masked as text', (t) => {
  addSecret('on');
  addSecret(31337);
  t.is(maskText('on 31337'), `on ${MASK}`);
  t.deepEqual(maskValue({ port: 31337, flag: 'on' }), { port: MASK, flag: 'on' });
});

test.serial('a multi-line secret is masked whole and line by line', (t) => {
  addSecret('-----BEGIN KEY-----\nMIIEpAIBAAKCAQEAx\n-----END KEY-----\n');
  t.is(maskText('-----BEGIN KEY-----\nMIIEpAIBAAKCAQEAx\n-----END KEY-----\n'), MASK);
  t.is(maskText('+MIIEpAIBAAKCAQEAx'), `+${MASK}`);
});

test.serial('maskValue copies deeply and leaves the input alone', (t) => {
  addSecret('s3cr3t-value');
  const input = { a: ['s3cr3t-value', { 's3cr3t-value': 1 }], e: new Error('bad s3cr3t-value') };
  const out = maskValue(input);
  t.deepEqual(out.a, [MASK, { [MASK]: 1 }]);
  t.is(out.e.message, `bad ${MASK}`);
  t.is(input.a[0], 's3cr3t-value');
});

test.serial('nothing registered: values pass through untouched (same object)', (t) => {
  t.false(hasSecrets());
  const v = { a: 'x' };
  t.is(maskValue(v), v);
});

test.serial('hostwire_secret_vars and vault_/secret_ names mark vars secret', (t) => {
  registerSecretVars({ hostwire_secret_vars: ['db_pass'], db_pass: 'plain-db-pass', vault_token: 'tok-1234', secret_key: 'key-5678', other: 'visible-value' });
  t.is(maskText('plain-db-pass tok-1234 key-5678 visible-value'), `${MASK} ${MASK} ${MASK} visible-value`);
});
