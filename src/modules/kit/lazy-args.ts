// A module's argument schema built on its first use instead of when the CLI loads. zod builds every
// schema object eagerly (each binds ~25 methods), so a large schema - iptables' ~300 objects - costs
// milliseconds at every start-up of every run, whether a task uses the module or not. The schema
// walkers (coerce, arg names, the module reference) look through z.lazy, as zod's parse does.
import { z, type ZodTypeAny } from 'zod';

export function lazyArgs<T extends ZodTypeAny>(build: () => T): z.ZodLazy<T> {
  let built: T | undefined;
  return z.lazy(() => (built ??= build()));
}
