// `hostwire vault encrypt|decrypt|view|encrypt-string`: ansible-vault's file format (1.1/1.2 AES256),
// so files stay usable by ansible-vault and ansible-playbook.
import type { Command } from 'commander';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { BadInputError } from '../errors.js';
import { readInputFile } from '../engine/input-file.js';
import { collectVaultPasswords, decryptVault, encryptVault, isVaultText, VAULT_PASSWORD_ENV } from '../vault/index.js';
import { reportError } from './errors.js';
import { collect } from './options.js';

interface VaultFlags {
  vaultPasswordFile: string[];
  vaultId?: string;
  name?: string;
  output?: string;
}

export function registerVaultCommands(program: Command): void {
  const vault = program.command('vault').description('encrypt and decrypt files in ansible-vault format (AES256)')
    .addHelpText('after', `
The password comes from --vault-password-file FILE (or a script printing it), the
${VAULT_PASSWORD_ENV} environment variable, or a prompt on a terminal.

Examples:
  hostwire vault encrypt group_vars/all/vault.yml --vault-password-file ~/.vault-pass
  hostwire vault view group_vars/all/vault.yml
  hostwire vault encrypt-string 's3cret' --name db_password >> group_vars/all/vars.yml
  ${VAULT_PASSWORD_ENV}=... hostwire run site.yml -i inventory/cluster.yml`);
  const withPw = (c: Command) => c.option('--vault-password-file <file>', 'password file or script (repeatable)', collect, []);
  withPw(vault.command('encrypt').argument('<files...>').option('--vault-id <label>', 'label written in a 1.2 header').description('encrypt files in place')
    .addHelpText('after', '\nExamples:\n  hostwire vault encrypt group_vars/all/vault.yml --vault-password-file ~/.vault-pass\n  hostwire vault encrypt secrets.yml --vault-id prod'))
    .action((files: string[], f: VaultFlags) => act(async () => {
      const pw = (await passwords(f, true))[0]!;
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        if (isVaultText(text)) throw new BadInputError('already encrypted with ansible-vault', { file });
        writeAtomic(file, encryptVault(text, pw, { vaultId: f.vaultId }));
      }
      process.stderr.write('Encryption successful\n');
    }));
  withPw(vault.command('decrypt').argument('<files...>').option('--output <file>', 'write the plaintext here instead (- for stdout)').description('decrypt files in place')
    .addHelpText('after', '\nExamples:\n  hostwire vault decrypt group_vars/all/vault.yml\n  hostwire vault decrypt secrets.yml --output - | less'))
    .action((files: string[], f: VaultFlags) => act(async () => {
      const pws = await passwords(f, false);
      for (const file of files) {
        const plain = decryptFile(file, pws);
        if (f.output === '-') process.stdout.write(plain);
        else writeAtomic(f.output ?? file, plain);
      }
      if (f.output !== '-') process.stderr.write('Decryption successful\n');
    }));
  withPw(vault.command('view').argument('<file>').description('print a decrypted file')
    .addHelpText('after', '\nExamples:\n  hostwire vault view group_vars/all/vault.yml --vault-password-file ~/.vault-pass'))
    .action((file: string, f: VaultFlags) => act(async () => void process.stdout.write(decryptFile(file, await passwords(f, false)))));
  withPw(vault.command('encrypt-string').argument('<value>').option('--name <var>', 'print as `var: !vault |` YAML').option('--vault-id <label>', 'label for a 1.2 header').description('encrypt one value for inline use (!vault)')
    .addHelpText('after', '\nExamples:\n  hostwire vault encrypt-string \"s3cret\" --name db_password >> group_vars/all/vars.yml'))
    .action((value: string, f: VaultFlags) => act(async () => {
      const env = encryptVault(value, (await passwords(f, true))[0]!, { vaultId: f.vaultId });
      const body = env.trimEnd().split('\n').map((l) => `          ${l}`).join('\n');
      process.stdout.write(`${f.name ?? ''}${f.name ? ': ' : ''}!vault |\n${body}\n`);
    }));
}

async function act(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    process.exitCode = reportError(err, 0);
  }
}

async function passwords(f: VaultFlags, confirm: boolean): Promise<string[]> {
  const fromFiles = await collectVaultPasswords({ passwordFiles: f.vaultPasswordFile });
  if (fromFiles.length) return fromFiles;
  if (!process.stdin.isTTY) throw new BadInputError(`no vault password: use --vault-password-file FILE or ${VAULT_PASSWORD_ENV}`);
  const { password } = await import('@inquirer/prompts');
  const pw = (await password({ message: confirm ? 'New vault password:' : 'Vault password:', mask: false })).trim();
  if (confirm && (await password({ message: 'Confirm new vault password:', mask: false })).trim() !== pw) throw new BadInputError('the passwords do not match');
  if (!pw) throw new BadInputError('empty vault password');
  return [pw];
}

function decryptFile(file: string, pws: string[]): string {
  const text = readInputFile(file, 'vault file');
  if (!isVaultText(text)) throw new BadInputError('not encrypted with ansible-vault', { file });
  try {
    return decryptVault(text, pws);
  } catch (err) {
    // The envelope starts at line 1: its header, salt and HMAC are what failed.
    throw new BadInputError(`cannot decrypt: ${(err as Error).message}`, { file, line: 1, column: 1 }, err);
  }
}

function writeAtomic(file: string, content: string): void {
  const tmp = `${file}.hostwire-tmp`;
  writeFileSync(tmp, content, { mode: 0o600 });
  renameSync(tmp, file);
}
