// Ansible's StrictUndefined, in JavaScript. A missing variable or attribute evaluates to an Undef that
// carries the dotted path the template used. `default`, `is defined` and `mandatory` inspect it; anything
// else that touches it (printing, arithmetic, comparison, most filters) throws UndefinedError naming it.

/** Internal failure while rendering; the public API turns it into a BadInputError with the source loc. */
export class TemplateFailure extends Error {
  /** formatted: the message already says "template error: ... in '<template>'". */
  /** undefinedVariable: the failure is a missing variable (debug's var prints a marker for it). */
  constructor(
    message: string,
    readonly formatted = false,
    readonly undefinedVariable = false,
  ) {
    super(message);
    this.name = 'TemplateFailure';
  }
}

export class Undef {
  /** path: what the template wrote ("foo.bar[0]"); reason: Jinja's wording when an attribute is missing. */
  constructor(
    readonly path: string,
    readonly reason?: string,
  ) {}

  /** Attribute access on an undefined stays undefined (Ansible: `foo.bar is defined` is false). */
  child(path: string): Undef {
    return new Undef(path, this.reason ?? `'${this.rootName()}' is undefined`);
  }

  rootName(): string {
    return /^[^.[]+/.exec(this.path)?.[0] ?? this.path;
  }

  describe(): string {
    return this.reason ? `undefined variable '${this.path}': ${this.reason}` : `undefined variable '${this.path}'`;
  }

  [Symbol.toPrimitive](): never {
    throw new UndefinedError(this);
  }

  toString(): never {
    throw new UndefinedError(this);
  }

  toJSON(): never {
    throw new UndefinedError(this);
  }
}

export class UndefinedError extends TemplateFailure {
  constructor(readonly undef: Undef) {
    super(undef.describe(), false, true);
    this.name = 'UndefinedError';
  }
}

export function isUndef(v: unknown): v is Undef {
  return v instanceof Undef;
}

/** Throws if `v` is undefined anywhere inside (a list or dict literal built from a missing variable). */
export function assertDefinedDeep(v: unknown, seen = new Set<unknown>()): void {
  if (v instanceof Undef) throw new UndefinedError(v);
  if (v === null || typeof v !== 'object' || seen.has(v)) return;
  seen.add(v);
  if (Array.isArray(v)) for (const x of v) assertDefinedDeep(x, seen);
  else if (Object.getPrototypeOf(v) === Object.prototype) for (const x of Object.values(v)) assertDefinedDeep(x, seen);
}

/** Ansible's `omit` placeholder: a key whose value renders to it is dropped from the task's args. */
class OmitPlaceholder {
  toString(): string {
    return '__omit_place_holder__hostwire';
  }
}
export const OMIT: object = Object.freeze(new OmitPlaceholder());

export function isOmit(v: unknown): boolean {
  return v === OMIT;
}
