// The script action's command line (ansible-core 2.14 plugins/action/script.py): the first shell word
// of the free-form text names the controller's script; the rest stays the user's shell text, as
// Ansible passes it (its quoting kept), after the uploaded copy's path.

/** Where the first shell word of `text` ends (quotes and backslashes as shlex.split reads them), and the word. */
export function firstWord(text: string): { word: string; end: number } {
  let word = '';
  let i = 0;
  while (i < text.length && !/\s/.test(text[i]!)) {
    const c = text[i]!;
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) throw new SyntaxError('no closing quotation');
      word += text.slice(i + 1, close);
      i = close + 1;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && (text[j + 1] === '"' || text[j + 1] === '\\')) j++;
        word += text[j];
        j++;
      }
      if (j >= text.length) throw new SyntaxError('no closing quotation');
      i = j + 1;
    } else if (c === '\\') {
      word += text[i + 1] ?? '';
      i += 2;
    } else {
      word += c;
      i++;
    }
  }
  return { word, end: i };
}

/** The script's name and the rest of the line (its arguments as written). */
export function splitScriptLine(raw: string): { script: string; rest: string } {
  const text = raw.trim();
  const { word, end } = firstWord(text);
  return { script: word, rest: text.slice(end) };
}
