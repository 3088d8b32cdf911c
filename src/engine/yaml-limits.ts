// What a YAML document may not do, for every reader (playbooks, inventories, vars files, -e @file):
// errors and unknown tags become one BadInputError at file:line:column (PyYAML refuses a tag it has
// no constructor for); aliases may not expand past a budget (billion laughs); nesting is bounded.
import type { Document, LineCounter } from 'yaml';
import { BadInputError, type SourceLoc } from '../errors.js';
import { VAULT_TAG_PREFIX } from '../vault/yaml-tag.js';

/** Values an input may build by following aliases; real files reuse an anchor a few times, for a few values. */
export const MAX_EXPANDED_VALUES = 100_000;
/** Nesting depth of mappings and lists; real Ansible content stays below 20. */
export const MAX_DEPTH = 200;

/** The first parse error or unknown tag, as a BadInputError; undefined when the document is clean. */
export function yamlDocumentError(doc: Document, text: string, lines: LineCounter, file: string): BadInputError | undefined {
  // PyYAML refuses C0 control characters (other than tab, LF, CR) and DEL anywhere in a stream.
  const bad = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.exec(text);
  if (bad) {
    const pos = lines.linePos(bad.index);
    const code = bad[0].charCodeAt(0).toString(16).padStart(4, '0');
    return new BadInputError(`unacceptable character #x${code}: control characters are not allowed in YAML (write it escaped, e.g. "\\x${code.slice(2)}")`, { file, line: pos.line, column: pos.col });
  }
  // `!unsafe` is Ansible's own tag (its value is never templated): not an unknown one.
  const problem = doc.errors[0] ?? doc.warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED' && !/Unresolved tag: !unsafe\b/.test(w.message));
  if (!problem) return undefined;
  // Point at the offending token rather than at the indentation before it.
  let offset = problem.pos[0];
  while (text[offset] === ' ' || text[offset] === '\t') offset++;
  const pos = lines.linePos(offset);
  const loc: SourceLoc = { file, line: pos.line, column: pos.col };
  const first = problem.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  if (first.startsWith(VAULT_TAG_PREFIX)) return new BadInputError(first.slice(VAULT_TAG_PREFIX.length), loc);
  if (problem.code === 'TAG_RESOLVE_FAILED') {
    const tag = first.replace(/^Unresolved tag: /, '').replace(/^tag:yaml\.org,2002:/, '!!');
    return new BadInputError(`unknown YAML tag '${tag}'; expected a plain value, !vault or !unsafe`, loc);
  }
  if (problem.code === 'RESOURCE_EXHAUSTION' || /call stack/i.test(first)) {
    return new BadInputError(`YAML nesting too deep; expected at most ${MAX_DEPTH} levels of mappings and lists`, loc);
  }
  return new BadInputError(`YAML syntax error: ${first}`, loc);
}

/** Counts values built from a document and its depth; throws at the first one over a limit. */
export class ExpansionBudget {
  private values = 0;
  constructor(private readonly where: () => SourceLoc) {}
  /** `aliased`: the value is built by following an alias (values written out once are not counted). */
  take(depth: number, aliased: boolean, at: () => SourceLoc | undefined): void {
    if (aliased && ++this.values > MAX_EXPANDED_VALUES) {
      throw new BadInputError(`YAML aliases expand to more than ${MAX_EXPANDED_VALUES.toLocaleString('en')} values (an alias bomb?); expected each anchor to be reused a reasonable number of times`, at() ?? this.where());
    }
    if (depth > MAX_DEPTH) throw new BadInputError(`YAML nesting too deep; expected at most ${MAX_DEPTH} levels of mappings and lists`, at() ?? this.where());
  }
}
