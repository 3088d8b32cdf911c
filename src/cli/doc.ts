// `hostwire doc [MODULE]`: the module reference, like ansible-doc. Without a name, every native module
// with its one-line purpose, then the modules the Ansible fallback can find from here; with a name,
// that module's arguments (type, default, choices, aliases), check/diff support and example.
import type { Command } from 'commander';
import { BadInputError } from '../errors.js';
import { getModule, isKnownModule, moduleNames } from '../modules/registry.js';
import { firstSentence, moduleText, wrap } from '../docs/module-docs.js';
import { fallbackModuleText, listFallbackModules } from '../docs/fallback-list.js';

export function moduleListText(): string {
  const names = moduleNames();
  const width = Math.max(...names.map((n) => n.length));
  const out = ['Native modules:', ...names.map((n) => `  ${n.padEnd(width)}  ${firstSentence(getModule(n)!.doc.description)}`), ''];
  let listing;
  try {
    listing = listFallbackModules();
  } catch (err) {
    // A broken ansible.cfg must not hide the native list; say why the rest is missing.
    out.push(`Ansible fallback modules: unavailable (${(err as Error).message})`, '');
    return out.join('\n');
  }
  for (const g of listing.groups) {
    out.push(`${g.source} (Ansible fallback):`);
    out.push(wrap(g.names.join(' '), '  '));
    out.push('');
  }
  if (listing.coreMissing) out.push(`ansible-core's own modules (Ansible fallback): unavailable: ${listing.coreMissing}`, '');
  return out.join('\n');
}

export function registerDocCommand(program: Command): void {
  program
    .command('doc')
    .description('module reference: list the modules, or show one module\'s arguments, check/diff support and example')
    .argument('[module]', 'a module name (native, or one the Ansible fallback finds)')
    .addHelpText('after', `
Examples:
  hostwire doc                 (every native module, then the Ansible fallback modules found from here)
  hostwire doc copy            (copy's arguments with types, defaults, choices and aliases, and an example)
  hostwire doc community.general.modprobe
The whole native reference is docs/modules.md.`)
    .action((name: string | undefined) => {
      if (name === undefined) {
        process.stdout.write(moduleListText());
        return;
      }
      if (isKnownModule(name)) {
        process.stdout.write(moduleText(getModule(name)!));
        return;
      }
      const fallback = /^[\w.]+$/.test(name) ? fallbackModuleText(name) : undefined;
      if (fallback === undefined) {
        throw new BadInputError(`doc: no module named '${name.replace(/[^\x20-\x7e]/g, '?')}': not a hostwire module and not found where Ansible looks (run \`hostwire doc\` for the list)`);
      }
      process.stdout.write(fallback);
    });
}
