// Every native module loaded at once, for what looks at all of them: the module reference, `hostwire doc`
// and tests. A run loads only the modules its tasks name (registry.ts).
import { loadAllModules } from './registry.js';

await loadAllModules();

export * from './registry.js';
