// A text file as lines plus whether it ended with a newline, and back: the line editors
// (lineinfile, ini_file, sysctl) keep a missing final newline missing.
export function splitLines(text: string): { lines: string[]; finalNewline: boolean } {
  if (text === '') return { lines: [], finalNewline: true };
  const finalNewline = text.endsWith('\n');
  return { lines: (finalNewline ? text.slice(0, -1) : text).split('\n'), finalNewline };
}

export const joinLines = (lines: string[], finalNewline: boolean) => (lines.length === 0 ? '' : lines.join('\n') + (finalNewline ? '\n' : ''));
