// -e/--extra-vars: key=value pairs, a JSON/YAML mapping, or @file, as ansible-playbook takes them.
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { BadInputError } from '../engine/errors.js';
import { parseKeyValueArgs } from '../engine/playbook/kv-args.js';
import { pyBools } from '../engine/yaml-source.js';
import { decryptFileText } from '../vault/keyring.js';
import { withVaultTag } from '../vault/yaml-tag.js';
import { withUnsafeTag } from '../engine/vars/unsafe.js';

export function parseExtraVars(values: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const v of values) {
    let data: unknown;
    if (v.startsWith('@')) {
      let text: string;
      try {
        text = readFileSync(v.slice(1), 'utf8');
      } catch {
        throw new BadInputError(`--extra-vars: cannot read file '${v.slice(1)}'`);
      }
      text = decryptFileText(text, v.slice(1));
      data = YAML.parse(text, { version: '1.1', customTags: ((t: never[]) => withUnsafeTag(withVaultTag(pyBools(t)))) as never });
    } else if (/^\s*[{[]/.test(v)) {
      try {
        data = YAML.parse(v, { version: '1.1', customTags: ((t: never[]) => withUnsafeTag(pyBools(t))) as never });
      } catch {
        throw new BadInputError(`--extra-vars: expected a JSON/YAML mapping, got '${v}'`);
      }
    } else data = parseKeyValueArgs(v, { file: '--extra-vars' });
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new BadInputError(`--extra-vars: expected key=value or a mapping, got '${v}'`);
    Object.assign(out, data);
  }
  return out;
}
