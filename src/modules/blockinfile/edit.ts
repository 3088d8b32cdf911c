// blockinfile's edit, as ansible-core 2.14's blockinfile.py makes it, on the file's bytes (held as
// latin1 text: one character per byte, as Python's bytes): the last BEGIN/END marker lines bound the
// block; without both, the block goes after the last line matching insertafter (before the last
// matching insertbefore; with (?m) the first match in the whole text), at EOF (BOF) when none does.
import { pyPattern } from '../kit/py-regex.js';

export interface BlockEdit {
  state: 'present' | 'absent';
  marker: string;
  marker_begin: string;
  marker_end: string;
  block: string;
  insertafter?: string;
  insertbefore?: string;
}

const latin1 = (utf8: string) => Buffer.from(utf8, 'utf8').toString('latin1');

/** Python's bytes.splitlines(keepends=True): \n, \r and \r\n end a line. */
export function splitKeepEnds(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
}

const markerLine = (marker: string, mark: string) => latin1(marker.split('{mark}').join(mark)) + '\n';

/** Where the block goes when the file has no complete marker pair. */
function insertAt(original: string, lines: string[], e: BlockEdit): number {
  const insertafter = e.insertafter === undefined && e.insertbefore === undefined ? 'EOF' : e.insertafter;
  const anchor = insertafter !== undefined && insertafter !== 'EOF' ? insertafter : e.insertbefore !== undefined && e.insertbefore !== 'BOF' ? e.insertbefore : undefined;
  if (anchor === undefined) return insertafter === undefined ? 0 : lines.length;
  const { re, multiline } = pyPattern(anchor, { bytes: true });
  let n0: number | undefined;
  if (multiline) {
    const m = re.exec(original);
    if (m) n0 = original.slice(0, insertafter !== undefined ? m.index + m[0].length : m.index).split('\n').length - 1;
  } else {
    lines.forEach((l, i) => {
      if (re.test(l)) n0 = i;
    });
  }
  if (n0 === undefined) return lines.length;
  return insertafter !== undefined ? n0 + 1 : n0;
}

/** The new file text (latin1), or the same string when nothing changes; `original` undefined: no file. */
export function editBlock(original: string | undefined, e: BlockEdit): string {
  const lines = original === undefined ? [] : splitKeepEnds(original);
  const marker0 = markerLine(e.marker, e.marker_begin);
  const marker1 = markerLine(e.marker, e.marker_end);
  let block = latin1(e.block);
  let blockLines: string[] = [];
  if (e.state === 'present' && block !== '') {
    if (!block.endsWith('\n')) block += '\n';
    blockLines = [marker0, ...splitKeepEnds(block), marker1];
  }
  let n0: number | undefined;
  let n1: number | undefined;
  lines.forEach((l, i) => {
    if (l === marker0) n0 = i;
    if (l === marker1) n1 = i;
  });
  if (n0 === undefined || n1 === undefined) n0 = insertAt(original ?? '', lines, e);
  else if (n0 < n1) lines.splice(n0, n1 - n0 + 1);
  else {
    lines.splice(n1, n0 - n1 + 1);
    n0 = n1;
  }
  if (n0 > 0 && !lines[n0 - 1]!.endsWith('\n')) lines[n0 - 1] += '\n';
  lines.splice(n0, 0, ...blockLines);
  return lines.join('');
}
