// PyYAML's reading of YAML (Ansible's loader is PyYAML's SafeLoader with Ansible's constructors):
// - scalars resolve with PyYAML's YAML 1.1 regexes: yes/no/on/off (not y/n) are booleans, a float needs
//   a dot (`1e3` is a string, `1.0e+3` a float), `09` is a string (not octal, not decimal), timestamps
//   stay the text written (Ansible templates a date back to that text);
// - PyYAML ignores indentation inside flow collections and quoted scalars: a `"..."` or `[...]` whose
//   continuation line starts at column 0 loads. The `yaml` package refuses that, so a document that fails
//   is retried once with those continuation lines indented (which PyYAML folds away anyway).
import { LineCounter, parseDocument, type Document, type DocumentOptions, type ParseOptions, type SchemaOptions } from 'yaml';

type Tag = { tag: string; test?: RegExp; format?: string };
// resolver.py (PyYAML 6.0): bool, int and float implicit resolvers.
const PY_TRUE = /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/;
const PY_FALSE = /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/;
const PY_FLOAT = /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?)$/;
const PY_DECIMAL = /^[-+]?(?:0|[1-9][0-9_]*)$/;
const PY_SEXAGESIMAL = /^[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+$/;
const YAML11 = {
  float: String(/^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/),
  exp: String(/^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/),
  decimal: String(/^[-+]?[0-9][0-9_]*$/),
  sexagesimal: String(/^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$/),
};

/** The yaml package's YAML 1.1 tags with PyYAML's resolution rules. */
export function pyYamlTags(tags: Tag[]): Tag[] {
  const out: Tag[] = [];
  for (const t of tags) {
    const test = t.test ? String(t.test) : '';
    if (t.tag === 'tag:yaml.org,2002:timestamp') continue;
    if (t.tag === 'tag:yaml.org,2002:bool' && t.test) out.push({ ...t, test: test.includes('Y|y') ? PY_TRUE : PY_FALSE });
    else if (t.tag === 'tag:yaml.org,2002:float' && test === YAML11.float) out.push({ ...t, test: PY_FLOAT });
    else if (t.tag === 'tag:yaml.org,2002:float' && test === YAML11.exp) continue; // PY_FLOAT covers exponents
    else if (t.tag === 'tag:yaml.org,2002:int' && test === YAML11.decimal) out.push({ ...t, test: PY_DECIMAL });
    else if (t.tag === 'tag:yaml.org,2002:int' && test === YAML11.sexagesimal) out.push({ ...t, test: PY_SEXAGESIMAL });
    else out.push(t);
  }
  return out;
}

type Options = ParseOptions & DocumentOptions & SchemaOptions;

/** parseDocument as PyYAML would accept it (see the header); the first attempt's errors if both fail. */
export function parsePyYaml(text: string, options: Options): Document.Parsed {
  const doc = parseDocument(text, options) as Document.Parsed;
  if (doc.errors.length === 0) return doc;
  const relaxed = indentFlowContinuations(text);
  if (relaxed === text) return doc;
  // The retry counts lines afresh: positions of the retried document are offsets in the relaxed text.
  const lines = new LineCounter();
  const retry = parseDocument(relaxed, { ...options, lineCounter: lines }) as Document.Parsed;
  if (retry.errors.length > 0) return doc;
  if (options.lineCounter) options.lineCounter.lineStarts.splice(0, Infinity, ...lines.lineStarts);
  return retry;
}

const leading = (line: string): number => line.length - line.trimStart().length;

/** True when a `"`, `'`, `[` or `{` at `j` starts a value in block context (not inside a plain scalar). */
function startsNode(line: string, j: number): boolean {
  const before = line.slice(0, j).replace(/(?:[&!][^\s]*\s+)+$/, '').trimEnd();
  return before === '' || /(?:^|\s)[-?]$/.test(before) || before.endsWith(':');
}

interface ScanState {
  quote: string | null;
  flow: number;
  /** Continuation lines of the open quoted scalar or flow collection must start at least here. */
  minCol: number;
  /** Indent of the line that opened a block scalar (`|`, `>`), else -1. */
  blockParent: number;
}

/** Indents the continuation lines of quoted scalars and flow collections past their opening column. */
export function indentFlowContinuations(text: string): string {
  const lines = text.split('\n');
  const s: ScanState = { quote: null, flow: 0, minCol: 0, blockParent: -1 };
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (s.quote !== null || s.flow > 0) {
      if (line.trim() !== '' && leading(line) < s.minCol) line = lines[i] = ' '.repeat(s.minCol - leading(line)) + line.trimStart();
    } else if (s.blockParent >= 0) {
      if (line.trim() === '' || leading(line) > s.blockParent) continue;
      s.blockParent = -1;
    }
    scanLine(line, s);
  }
  return lines.join('\n');
}

function scanLine(line: string, s: ScanState): void {
  for (let j = 0; j < line.length; j++) {
    const c = line[j]!;
    if (s.quote === '"') {
      if (c === '\\') j++;
      else if (c === '"') s.quote = null;
      continue;
    }
    if (s.quote === "'") {
      if (c === "'" && line[j + 1] === "'") j++;
      else if (c === "'") s.quote = null;
      continue;
    }
    if (c === '#' && (j === 0 || /\s/.test(line[j - 1]!))) return;
    if (s.flow > 0) {
      if (c === '[' || c === '{') s.flow++;
      else if (c === ']' || c === '}') s.flow--;
      else if (c === '"' || c === "'") s.quote = c;
      continue;
    }
    if (!startsNode(line, j)) continue;
    if (c === '"' || c === "'" || c === '[' || c === '{') {
      s.minCol = j + 1;
      if (c === '"' || c === "'") s.quote = c;
      else s.flow = 1;
    } else if ((c === '|' || c === '>') && /^[|>][-+0-9]*\s*(?:#.*)?$/.test(line.slice(j))) {
      s.blockParent = leading(line);
      return;
    }
  }
}
