// An error while rendering a template file names that file and the line in it (Ansible: "... in
// templates/x.j2, line 3"), not the line of the task that asked for it.
import { BadInputError, formatLoc, type SourceLoc } from '../../errors.js';

/** The line the failure points at: nunjucks' [Line N, Column M], else the first tag using the undefined name. */
function failingLine(text: string, message: string): { line: number; column?: number } {
  const pos = /\[Line (\d+), Column (\d+)\]/.exec(message);
  if (pos) return { line: Number(pos[1]), column: Number(pos[2]) };
  const m = /undefined variable '([A-Za-z_][\w.]*)'|'([A-Za-z_][\w.]*)' is undefined/.exec(message);
  const name = (m?.[1] ?? m?.[2])?.split('.')[0];
  if (name) {
    const lines = text.split('\n');
    const word = new RegExp(`(?:{{|{%)[^\\n]*\\b${name}\\b`);
    const i = lines.findIndex((l) => word.test(l));
    if (i >= 0) return { line: i + 1 };
  }
  return { line: 1 };
}

/** Re-points a template failure (located at the task) at the template file's line. */
export function atTemplateLine(err: unknown, text: string, file: string, task: SourceLoc): unknown {
  if (!(err instanceof BadInputError)) return err;
  const prefix = `${formatLoc(err.loc)}: `;
  const what = err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
  return new BadInputError(`${what} (template of the task at ${formatLoc(task)})`, { file, ...failingLine(text, what) }, err);
}
