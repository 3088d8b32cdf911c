// `hostwire doc [MODULE]`: the module reference, like ansible-doc. Without a name, every native module
// with its one-line purpose, then the modules the Ansible fallback can find from here; with a name,
// that module's arguments (type, default, choices, aliases), check/diff support and example.
// A name resolves as a task's does (load-tasks.ts): ansible.builtin.stat, ansible.legacy.stat and a
// collection's name of a native module (community.general.modprobe) show the native module that runs.
import type { Command } from 'commander';
import { BadInputError } from '../errors.js';
import { getModule, isKnownModule, loadAllModules, moduleNames } from '../modules/registry.js';
import type { Module } from '../modules/types.js';
import { shortModuleName } from '../engine/playbook/keywords.js';
import { firstSentence, moduleText, wrap } from '../docs/module-docs.js';
import { fallbackModuleText, listFallbackModules } from '../docs/fallback-list.js';

/** The native module a task naming `name` runs, as the playbook loader resolves it (modules loaded: loadAllModules). */
export function nativeModuleFor(name: string): Module<any, any> | undefined {
  return isKnownModule(name) ? getModule(shortModuleName(name)) : undefined;
}

// ansible-core's files for keywords the playbook loader handles itself: never run as a module.
const LOADER_ACTIONS = new Set(['import_playbook', 'import_role', 'import_tasks', 'include_role', 'include_tasks']);

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
    // A name a native module answers to never reaches the fallback: listing it here would mislead.
    const native = g.names.filter((n) => nativeModuleFor(n) !== undefined || LOADER_ACTIONS.has(n));
    const names = g.names.filter((n) => !native.includes(n));
    if (!names.length && !native.length) continue;
    out.push(`${g.source} (Ansible fallback):`);
    if (names.length) out.push(wrap(names.join(' '), '  '));
    if (native.length) out.push(wrap(`(not listed, run natively or by the playbook loader: ${native.length}: ${native.join(' ')})`, '  '));
    out.push('');
  }
  if (listing.coreMissing) out.push(`ansible-core's own modules (Ansible fallback): unavailable: ${listing.coreMissing}`, '');
  return out.join('\n');
}

/** `hostwire doc NAME` for a native module; a longer name says which native module it is. */
function nativeText(name: string, m: Module<any, any>): string {
  const text = moduleText(m);
  if (name === m.name) return text;
  const [head, ...rest] = text.split('\n');
  return [`${head}  (${name} runs natively as hostwire's ${m.name})`, ...rest].join('\n');
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
    .action(async (name: string | undefined) => {
      await loadAllModules();
      if (name === undefined) {
        process.stdout.write(moduleListText());
        return;
      }
      const native = /^[\w.]+$/.test(name) ? nativeModuleFor(name) : undefined;
      if (native) {
        process.stdout.write(nativeText(name, native));
        return;
      }
      const fallback = /^[\w.]+$/.test(name) ? fallbackModuleText(name) : undefined;
      if (fallback === undefined) {
        throw new BadInputError(`doc: no module named '${name.replace(/[^\x20-\x7e]/g, '?')}': not a hostwire module and not found where Ansible looks (run \`hostwire doc\` for the list)`);
      }
      process.stdout.write(fallback);
    });
}
