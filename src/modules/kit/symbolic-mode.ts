// Symbolic file modes (`u=rwx,g=rx,o=`, `u+x`, `g-w`, `a=r`, `=r`, `+X`) as Ansible's
// AnsibleModule._symbolic_mode_to_octal computes them: clause by clause against the path's current
// mode on the host; X, u/g/o (copy another class) and an empty who (`=r`: all, minus the umask's bits)
// read the mode the path had before the task, as Ansible's do. A new path starts from what it is
// created with (0666, a directory 0777, less the umask).

const PERM_BITS = 0o7777;
const EXEC_BITS = 0o111;

/** Ansible's split: each clause is who, then operator/permissions pairs (`u=rw-x+X`). */
const CLAUSE = /^(?:|a|[ugo]+)(?:[+=-][rwxXstugo]*)*$/;

/** Why `mode` is not a symbolic mode Ansible would apply, or undefined. */
export function symbolicModeProblem(mode: string): string | undefined {
  const bad = mode.split(',').find((c) => !CLAUSE.test(c));
  return bad === undefined ? undefined : `bad symbolic permission for mode: ${bad}`;
}

/** Not octal digits: a symbolic mode. */
export const isSymbolicMode = (mode: string | undefined): mode is string => mode !== undefined && !/^[0-7]+$/.test(mode);

type Who = 'u' | 'g' | 'o';

/** _get_octal_mode_from_symbolic_perms: the bits `perms` stand for, for one class of users. */
function permBits(prev: number, isDir: boolean, who: Who, perms: string, umask: number | undefined): number {
  const shift = { u: 6, g: 3, o: 0 }[who];
  const keep = umask === undefined ? PERM_BITS : umask ^ PERM_BITS;
  const copy = (from: Who) => ((prev >> { u: 6, g: 3, o: 0 }[from]) & 7) << shift;
  const applyX = isDir || (prev & EXEC_BITS) > 0;
  let bits = 0;
  for (const p of perms) {
    if (p === 'r') bits |= keep & (4 << shift);
    else if (p === 'w') bits |= keep & (2 << shift);
    else if (p === 'x') bits |= keep & (1 << shift);
    else if (p === 'X') bits |= applyX ? 1 << shift : 0;
    else if (p === 's') bits |= who === 'u' ? 0o4000 : who === 'g' ? 0o2000 : 0;
    else if (p === 't') bits |= who === 'o' ? 0o1000 : 0;
    else bits |= copy(p as Who);
  }
  return bits;
}

/** _apply_operation_to_mode. */
function applyOp(who: Who, op: string, bits: number, mode: number): number {
  if (op === '+') return mode | bits;
  if (op === '-') return mode & ~bits;
  const mask = { u: 0o4700, g: 0o2070, o: 0o1007 }[who];
  return (mode & (mask ^ PERM_BITS)) | bits;
}

/**
 * The mode `symbolic` gives a path whose mode is `prev` (a directory when isDir); `umask` is needed only
 * for a clause with an empty who (`=r`, `+x`): bits set in the umask are left alone there.
 */
export function symbolicToOctal(prev: number, isDir: boolean, symbolic: string, umask: number | undefined): number {
  let mode = prev & PERM_BITS;
  for (const clause of symbolic.split(',')) {
    const parts = clause.split(/[+=-]/);
    const ops = clause.match(/[+=-]/g) ?? [];
    const whoText = parts.shift()!;
    if (whoText === '' && ops.length > 0 && umask === undefined) throw new Error('the umask is needed for a mode clause with no u/g/o/a');
    const who = (whoText === '' || whoText === 'a' ? 'ugo' : whoText).split('') as Who[];
    parts.forEach((perms, i) => {
      for (const w of who) mode = applyOp(w, ops[i], permBits(prev, isDir, w, perms, whoText === '' ? umask : undefined), mode);
    });
  }
  return mode;
}

/** A mode for a path: octal as given, a symbolic one computed against `prev` (as '0755'). */
export function octalOf(mode: string, prev: number, isDir: boolean, umask: number | undefined): string {
  if (!isSymbolicMode(mode)) return mode;
  return symbolicToOctal(prev, isDir, mode, umask).toString(8).padStart(4, '0');
}
