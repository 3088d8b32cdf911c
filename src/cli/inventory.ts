// `hostwire inventory` (like ansible-inventory) and `hostwire facts PATTERN`.
import type { Command } from 'commander';
import { connectionSettings, hostVars, inventoryToGraph, inventoryToJson, loadInventory, selectHosts } from '../engine/inventory/index.js';
import { BadInputError } from '../errors.js';
import { mergeVars, templatedVars } from '../engine/vars/index.js';
import { createTransport } from '../transports/index.js';
import { gatherFacts } from '../facts/index.js';
import { forEachLimited } from '../engine/runner/pool.js';
import { collect, count } from './options.js';
import { reportError } from './errors.js';
import { maskText } from '../vault/secrets.js';
import { registerSecretVars } from '../vault/secret-vars.js';
import { collectVaultPasswords, keepVaultValuesEncrypted, setVaultPasswords } from '../vault/index.js';
import { mergeSettings } from './config-merge.js';
import { withConnectionDefaults } from '../engine/runner/config-defaults.js';

interface InventoryFlags {
  inventory: string[];
  list?: boolean;
  graph?: boolean;
  vars?: boolean;
  host?: string;
  verbose: number;
  vaultPasswordFile: string[];
  askVaultPass?: boolean;
}

export function registerInventoryCommands(program: Command): void {
  program
    .command('inventory')
    .description('show an Ansible inventory as hostwire reads it (like ansible-inventory)')
    .option('-i, --inventory <path>', 'inventory file or directory (repeatable)', collect, [])
    .option('--list', 'JSON in ansible-inventory --list shape')
    .option('--graph', 'the group tree')
    .option('--vars', 'with --graph: show variables')
    .option('--host <name>', 'the variables of one host')
    .option('--vault-password-file <file>', 'vault password file, or a script printing it (repeatable)', collect, [])
    .option('-J, --ask-vault-pass', 'ask for the vault password (terminal only; HOSTWIRE_VAULT_PASSWORD also works)')
    .option('-v, --verbose', 'more output', count, 0)
    .addHelpText('after', '\nWithout a vault password, an inline !vault value is shown as ansible-inventory shows it: {"__ansible_vault": "<ciphertext>"}.\n\nExamples:\n  hostwire inventory -i inventory/cluster.ini --list\n  hostwire inventory -i inventory/ --graph')
    .action(async (f: InventoryFlags) => {
      try {
        const cfg = mergeSettings({ inventory: f.inventory, vaultPasswordFile: f.vaultPasswordFile });
        setVaultPasswords(await collectVaultPasswords({ passwordFiles: cfg.vaultPasswordFiles, ask: f.askVaultPass }));
        keepVaultValuesEncrypted(true);
        const inv = await loadInventory(cfg.inventory);
        for (const h of inv.hosts.keys()) registerSecretVars(hostVars(inv, h));
        if (f.host) process.stdout.write(maskText(JSON.stringify(hostVars(inv, f.host), null, 4)) + '\n');
        else if (f.graph) process.stdout.write(maskText(inventoryToGraph(inv, { vars: f.vars })) + '\n');
        else if (f.list) process.stdout.write(maskText(JSON.stringify(inventoryToJson(inv), null, 4)) + '\n');
        else throw new BadInputError('one of --list, --graph or --host is required');
      } catch (err) {
        process.exitCode = reportError(err, f.verbose);
      }
    });

  program
    .command('facts')
    .description('gather and print the facts of the matching hosts (one remote exec each)')
    .argument('<pattern>', 'host pattern')
    .option('-i, --inventory <path>', 'inventory file or directory (repeatable)', collect, [])
    .option('--host-key-checking <policy>', 'strict (default), accept-new or off')
    .option('-c, --connection <type>', 'ssh or local')
    .option('-v, --verbose', 'more output', count, 0)
    .addHelpText('after', '\nExamples:\n  hostwire facts all -i inventory/cluster.yml\n  hostwire facts node1 -i inv.yml | jq .node1.ansible_default_ipv4\n  hostwire facts localhost -c local -i localhost,')
    .action(async (pattern: string, f: { inventory: string[]; hostKeyChecking?: 'strict' | 'accept-new' | 'off'; connection?: 'ssh' | 'local'; verbose: number }) => {
      try {
        const cfg = mergeSettings({ inventory: f.inventory, hostKeyChecking: f.hostKeyChecking });
        const inv = await loadInventory(cfg.inventory);
        const names = selectHosts(inv, pattern);
        if (!names.length && ['localhost', '127.0.0.1'].includes(pattern)) names.push(pattern);
        if (!names.length) throw new BadInputError(`no hosts matched the pattern '${pattern}'`);
        const out: Record<string, unknown> = {};
        let failed = false;
        await forEachLimited(names, 50, async (name) => {
          const vars = withConnectionDefaults(cfg.connectionDefaults, templatedVars(mergeVars(hostVars(inv, name))));
          const settings = connectionSettings(vars);
          const netns = vars.hostwire_netns;
          const t = createTransport(name, { ...settings, connection: f.connection ?? settings.connection, netns: typeof netns === 'string' ? netns : undefined }, { hostKeyChecking: cfg.hostKeyChecking });
          try {
            await t.connect();
            out[name] = await gatherFacts(t);
          } catch (err) {
            failed = true;
            out[name] = { unreachable: true, msg: (err as Error).message };
          } finally {
            await t.close().catch(() => undefined);
          }
        });
        process.stdout.write(JSON.stringify(out, null, 2) + '\n');
        process.exitCode = failed ? 4 : 0;
      } catch (err) {
        process.exitCode = reportError(err, f.verbose);
      }
    });
}
