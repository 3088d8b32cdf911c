// ansible-vault compatibility from files recorded with ansible-core 2.14 (test/vault/fixtures):
// decryption of 1.1 / 1.2 files and inline !vault values, byte-identical encryption, password
// sources, and the errors a user sees.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decryptVault, encryptVault, parseEnvelope, collectVaultPasswords, readPasswordFile, setVaultPasswords, clearSecrets, maskText, MASK, decryptFileText } from '../../src/vault/index.js';
import { parseYaml, readYamlFile } from '../../src/engine/yaml-source.js';
import { readVarsFile } from '../../src/engine/inventory/vars-dirs.js';
import { BadInputError } from '../../src/errors.js';

const fx = (name: string) => fileURLToPath(new URL(`../../../test/vault/fixtures/${name}`, import.meta.url));
const read = (name: string) => readFileSync(fx(name), 'utf8');
const PW = 'correct horse battery staple';

test.afterEach.always(() => {
  setVaultPasswords(undefined);
  clearSecrets();
});

test.serial('decrypts a 1.1 file written by ansible-vault', (t) => {
  t.is(decryptVault(read('secrets.vault.yml'), [PW]), read('secrets.plain.yml'));
});

test.serial('decrypts a 1.2 file with a vault id, trying each password', (t) => {
  const env = parseEnvelope(read('prod.vault.yml'));
  t.is(env.version, '1.2');
  t.is(env.vaultId, 'prod');
  t.is(decryptVault(read('prod.vault.yml'), [PW, 'prod-pass-2']), read('prod.plain.yml'));
});

test.serial('decrypts multi-byte UTF-8 content', (t) => {
  t.is(decryptVault(read('unicode.vault.txt'), [PW]), read('unicode.plain.txt'));
});

test.serial('encryption is byte-identical to ansible-vault given the same salt', (t) => {
  for (const [enc, plain, pw, id] of [['secrets.vault.yml', 'secrets.plain.yml', PW, undefined], ['prod.vault.yml', 'prod.plain.yml', 'prod-pass-2', 'prod']] as const) {
    const { salt } = parseEnvelope(read(enc));
    t.is(encryptVault(read(plain), pw, { salt, vaultId: id }), read(enc));
  }
  const fresh = encryptVault('hello', 'pw');
  t.not(fresh, encryptVault('hello', 'pw'), 'a random salt each time');
  t.is(decryptVault(fresh, ['pw']), 'hello');
});

test.serial('a wrong password or damaged data gives a clear error', (t) => {
  t.throws(() => decryptVault(read('secrets.vault.yml'), ['nope']), { message: /wrong vault password \(HMAC check failed\)/ });
  const damaged = read('secrets.vault.yml').replace(/\n3537/, '\nzz37');
  t.throws(() => decryptVault(damaged, [PW]), { message: /not hexadecimal/ });
  t.throws(() => parseEnvelope('$ANSIBLE_VAULT;1.0;AES\nabcd'), { message: /unsupported vault format version '1.0'/ });
});

test.serial('password files: content stripped, or the stdout of an executable script', async (t) => {
  t.is(readPasswordFile(fx('vault-pass.txt')), PW);
  t.is(readPasswordFile(fx('vault-pass.sh')), PW);
  t.throws(() => readPasswordFile(fx('missing.txt')), { instanceOf: BadInputError, message: /cannot read .*missing\.txt.*ENOENT/ });
  const pws = await collectVaultPasswords({ passwordFiles: [fx('prod-pass.txt')], env: { HOSTWIRE_VAULT_PASSWORD: 'from-env' } });
  t.deepEqual(pws, ['prod-pass-2', 'from-env']);
  t.deepEqual(await collectVaultPasswords({ ask: true, isTTY: true, env: {}, prompt: async () => ' typed \n' }), ['typed']);
  await t.throwsAsync(collectVaultPasswords({ ask: true, isTTY: false, env: {} }), { message: /--ask-vault-pass needs a terminal/ });
});

test.serial('encrypted vars files load through every reader, and their values become secret', async (t) => {
  setVaultPasswords([PW]);
  t.deepEqual(await readYamlFile(fx('secrets.vault.yml')), { db_password: 'Hunter2-planted-SECRET', api_token: 'tok-7f3a9c1e55d2', mtu: 1450 });
  t.is((await readVarsFile(fx('secrets.vault.yml')))?.db_password, 'Hunter2-planted-SECRET');
  t.is(maskText('pw=Hunter2-planted-SECRET tok-7f3a9c1e55d2 mtu 1450'), `pw=${MASK} ${MASK} mtu ${MASK}`);
});

test.serial('inline !vault values decrypt and are secret', async (t) => {
  setVaultPasswords([PW]);
  t.deepEqual(parseYaml(read('inline.yml'), 'inline.yml'), { ssh_secret: 'Inline-Planted-Secret-42' });
  t.is(maskText('x Inline-Planted-Secret-42 y'), `x ${MASK} y`);
});

test.serial('without a password the error names the file (and line for inline values)', async (t) => {
  const prev = process.env.HOSTWIRE_VAULT_PASSWORD;
  delete process.env.HOSTWIRE_VAULT_PASSWORD;
  t.teardown(() => {
    if (prev !== undefined) process.env.HOSTWIRE_VAULT_PASSWORD = prev;
  });
  const e1 = await t.throwsAsync(readYamlFile(fx('secrets.vault.yml')), { instanceOf: BadInputError });
  t.regex(e1.message, /secrets\.vault\.yml:1:1: this file is encrypted with ansible-vault but no vault password was given; give the password with --vault-password-file FILE, the HOSTWIRE_VAULT_PASSWORD environment variable or --ask-vault-pass/);
  const e2 = t.throws(() => parseYaml(`a: 1\n${read('inline.yml')}`, 'vars.yml'), { instanceOf: BadInputError });
  t.regex(e2.message, /^vars\.yml:2:\d+: this !vault value is encrypted with ansible-vault but no vault password/);
  setVaultPasswords(['wrong']);
  t.throws(() => decryptFileText(read('secrets.vault.yml'), 'g/all.yml'), { message: /^g\/all\.yml:1:1: cannot decrypt this vault-encrypted file: wrong vault password/ });
});

test.serial('HOSTWIRE_VAULT_PASSWORD is used when no password was configured', async (t) => {
  const prev = process.env.HOSTWIRE_VAULT_PASSWORD;
  process.env.HOSTWIRE_VAULT_PASSWORD = PW;
  t.teardown(() => {
    if (prev === undefined) delete process.env.HOSTWIRE_VAULT_PASSWORD;
    else process.env.HOSTWIRE_VAULT_PASSWORD = prev;
  });
  t.is((await readYamlFile(fx('secrets.vault.yml')) as Record<string, unknown>).api_token, 'tok-7f3a9c1e55d2');
});
