// -e/--extra-vars: key=value pairs, a JSON/YAML mapping, or @file, as ansible-playbook takes them.
// A file is read like any input (regular, size-bounded) and parsed like a playbook (file:line errors).
import { BadInputError } from '../errors.js';
import { readInputFile } from '../engine/input-file.js';
import { parseKeyValueArgs } from '../engine/playbook/kv-args.js';
import { parseYaml } from '../engine/yaml-source.js';
import { decryptFileText } from '../vault/keyring.js';
import { assignOwn } from '../own-keys.js';

export function parseExtraVars(values: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const v of values) {
    let data: unknown;
    if (v.startsWith('@')) {
      const file = v.slice(1);
      data = parseYaml(decryptFileText(readInputFile(file, '--extra-vars file'), file), file);
      if (data === null || data === undefined) continue;
      if (typeof data !== 'object' || Array.isArray(data)) {
        throw new BadInputError(`--extra-vars: expected a mapping of variables, got ${Array.isArray(data) ? 'a list' : `a ${typeof data}`}`, { file, line: 1 });
      }
    } else if (/^\s*[{[]/.test(v)) {
      data = parseYaml(v, '--extra-vars');
    } else data = parseKeyValueArgs(v, { file: '--extra-vars' });
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new BadInputError(`--extra-vars: expected key=value or a mapping, got '${v}'`);
    assignOwn(out, data);
  }
  return out;
}
