// Python's str.splitlines(), which Ansible uses for stdout_lines/stderr_lines (command, shell, raw).

/** Every line break Python knows, no empty tail. */
export function pythonSplitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (/(\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029])$/.test(text)) lines.pop();
  return lines;
}
