// Which data a render read (a registered result, a fact, a set_fact value, a loop item, a host name,
// a lookup's output). A condition written with `{{ }}` is rendered and its text evaluated again, as
// Ansible does; that second evaluation must never evaluate text a host (or a file) supplied, so the
// rendered text is checked against the strings of the data read (see builtFromData).
let frame: unknown[] | undefined;

export function noteDataRead(value: unknown): void {
  frame?.push(value);
}

/** `fn`'s value and the data values it read (top-level variables and lookup results). */
export function readingData<T>(fn: () => T): { value: T; data: unknown[] } {
  const outer = frame;
  const mine: unknown[] = [];
  frame = mine;
  try {
    return { value: fn(), data: mine };
  } finally {
    frame = outer;
    outer?.push(...mine);
  }
}

/** A string that, spliced into an expression, can only be names, numbers, attribute access and arithmetic. */
const INERT = /^[\w.:/@+-]*$/;

/**
 * Whether `text` holds a string from `data` that could change what the expression does when evaluated
 * (quotes, brackets, calls, filters, spaces). Numbers and booleans from data print as literals. A walk
 * too large to finish counts as yes.
 */
export function builtFromData(text: string, data: unknown[]): boolean {
  let budget = 20_000;
  const seen = new Set<object>();
  const stack = [...data];
  while (stack.length) {
    const v = stack.pop();
    if (--budget < 0) return true;
    if (typeof v === 'string') {
      if (v !== '' && !INERT.test(v) && text.includes(v)) return true;
    } else if (v && typeof v === 'object' && !seen.has(v)) {
      seen.add(v);
      stack.push(...(Array.isArray(v) ? v : Object.values(v)));
    }
  }
  return false;
}
