// The floors of src/ (docs/architecture.md "Layering"), lowest first, and the checker the layering
// test runs. A file may import from its own room (top-level folder of src/) and from rooms on lower
// floors; a sideways import between rooms of one floor is allowed only when SIDEWAYS names it.
import type { ImportEdge } from './source-tree.js';

/** Every top-level entry of src/ (folder, or root file) sits on exactly one floor. */
export const FLOORS: readonly (readonly string[])[] = [
  ['errors.ts', 'private-files.ts', 'bounded-regex.ts', 'own-keys.ts'], // 0 root shared: the error kinds, 0600 controller files, time-bounded regex matching, data keys as own keys (__proto__)
  ['transports', 'vault', 'config'], // 1 talking to a host; secrets; ansible.cfg
  ['probe'], // 2 the read protocol: probes, batching, merged reads, sections, read-ahead
  ['facts', 'sdn', 'modules', 'fallback'], // 3 what is read (facts), pure network plans (sdn), state primitives (modules), Ansible's own modules run on a host (fallback)
  ['engine'], // 4 inventory, playbook, vars, runner
  ['ui', 'report', 'graph', 'lab', 'scenario', 'init', 'docs', 'bench'], // 5 what stands on a run
  ['cli', 'index.ts'], // 6 entry points: the hostwire command, the library
];

/** Permanent sideways imports within one floor, each with its reason. */
export const SIDEWAYS: Readonly<Record<string, string>> = {
  'modules -> sdn': 'subnet_lease and etcd_key apply the sdn allocator and its stores on a host',
  'modules -> facts': 'setup and gather_facts as tasks read the facts as a play\'s gathering does (one exec)',
  'fallback -> modules': 'a fallback module is a Module (types.ts), registered by the name its task runs under (registry.ts)',
  'report -> ui': 'the HTML report formats durations and counts as the renderers do',
  'scenario -> lab': 'a scenario creates and destroys its lab hosts',
  'bench -> lab': 'the benchmark runs on lab hosts',
};

/** The room of a src/ file: its top-level folder, or the file itself at the root. */
export function roomOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'src' || parts.length < 2) throw new Error(`${file}: not under src/`);
  return parts[1]!;
}

export function floorOf(room: string): number | undefined {
  const i = FLOORS.findIndex((rooms) => rooms.includes(room));
  return i < 0 ? undefined : i;
}

export interface Violation {
  message: string;
}

/** The runner imports the module registry, types and kit, never one module's folder (it names no module). */
function runnerNamesModule(e: ImportEdge): boolean {
  if (!e.from.startsWith('src/engine/runner/')) return false;
  const m = /^src\/modules\/([^/]+)\//.exec(e.to);
  return m !== null && m[1] !== 'kit';
}

/** A module folder imports the kit (shared helpers) and the floor's types, never another module's folder. */
function moduleImportsModule(e: ImportEdge): boolean {
  const from = /^src\/modules\/([^/]+)\//.exec(e.from);
  const to = /^src\/modules\/([^/]+)\//.exec(e.to);
  return from !== null && to !== null && from[1] !== to[1] && from[1] !== 'kit' && to[1] !== 'kit';
}

export function layeringViolations(edges: readonly ImportEdge[]): Violation[] {
  const out: Violation[] = [];
  for (const e of edges) {
    const where = `${e.from}:${e.line} imports ${e.to}`;
    const [a, b] = [roomOf(e.from), roomOf(e.to)];
    const [fa, fb] = [floorOf(a), floorOf(b)];
    if (fa === undefined || fb === undefined) {
      out.push({ message: `${where}: room '${fa === undefined ? a : b}' sits on no floor (add it to FLOORS)` });
    } else if (a !== b && fb > fa) {
      out.push({ message: `${where}: upward, ${a} (floor ${fa}) -> ${b} (floor ${fb})` });
    } else if (a !== b && fb === fa && !SIDEWAYS[`${a} -> ${b}`]) {
      out.push({ message: `${where}: sideways on floor ${fa}, ${a} -> ${b} (not in SIDEWAYS)` });
    }
    if (moduleImportsModule(e)) out.push({ message: `${where}: a module imports another module's folder (move the shared part to src/modules/kit/)` });
    if (runnerNamesModule(e)) out.push({ message: `${where}: the runner names a module (declare the need on the Module instead)` });
  }
  return out;
}
