// ansible.cfg's INI dialect, as Python's configparser reads it for Ansible
// (ConfigParser(inline_comment_prefixes=(';',))): whole-line comments start with # or ;, an inline
// comment only with ' ;'; keys are case-insensitive, `=` or `:` separate key and value, an indented
// line continues the value above. Values are read raw (ConfigManager's p.get(..., raw=True)): no
// interpolation, so `%%` stays `%%` and `%(directory)s` is text (openshift-ansible's control_path).
import { BadInputError } from '../errors.js';

export interface IniValue {
  value: string;
  line: number;
}

export type IniSections = Map<string, Map<string, IniValue>>;

const SECTION = /^\[([^\]]+)\]\s*$/;

/** Parses `text` (read from `file`); a line configparser would refuse is an error naming file:line. */
export function parseIni(text: string, file: string): IniSections {
  const sections: IniSections = new Map();
  let current: Map<string, IniValue> | undefined;
  let last: IniValue | undefined;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) {
      if (trimmed === '') last = undefined;
      return;
    }
    if (/^\s/.test(raw) && last) {
      last.value = `${last.value}\n${stripInline(trimmed)}`;
      return;
    }
    const section = SECTION.exec(trimmed);
    if (section) {
      const name = section[1]!;
      if (sections.has(name)) throw new BadInputError(`${file}:${line}: section [${name}] appears twice; expected each section once`);
      sections.set(name, (current = new Map()));
      last = undefined;
      return;
    }
    if (!current) throw new BadInputError(`${file}:${line}: '${trimmed}' is outside any section; expected a [section] header first (such as [defaults])`);
    const sep = trimmed.search(/[=:]/);
    if (sep <= 0) throw new BadInputError(`${file}:${line}: '${trimmed}' is not a setting; expected key = value`);
    const key = trimmed.slice(0, sep).trim().toLowerCase();
    if (current.has(key)) throw new BadInputError(`${file}:${line}: '${key}' is set twice in this section; expected each key once`);
    last = { value: stripInline(trimmed.slice(sep + 1).trim()), line };
    current.set(key, last);
  });
  return sections;
}

/** configparser's inline comment: ';' preceded by whitespace. */
function stripInline(value: string): string {
  const m = /\s;/.exec(value);
  return (m ? value.slice(0, m.index) : value).trim();
}
