// modprobe's read: what community.general 6.6.2's modprobe.py reads - /proc/modules, the kernel's
// modules.builtin, the files of /etc/modules-load.d and /etc/modprobe.d (when persistent asks) - and the
// dry run (modprobe -n) it makes under --check, which fails on a module the host cannot load.
import { shellJoin, shellQuote } from '../../transports/quote.js';
import { section } from '../../probe/sections.js';
import type { Probe } from '../../probe/types.js';
import type { ModprobeArgs } from './args.js';
import { parseModprobe, type ModprobeState } from './parse.js';
import { pythonSplit } from './shlex.js';

export const MODULES_LOAD = '/etc/modules-load.d';
export const PARAMETERS_FILES = '/etc/modprobe.d';

/** Every regular file of a folder (os.listdir + isfile: dot files too), its content in base64. */
function listFiles(dir: string): string {
  const d = shellQuote(dir);
  return (
    `if [ -d ${d} ]; then for f in ${d}/* ${d}/.[!.]* ${d}/..?*; do [ -f "$f" ] || continue; ` +
    `printf '::file %s\\n' "$f"; base64 -w0 -- "$f"; echo; done; else echo '::nodir'; fi`
  );
}

export function modprobeCommand(a: ModprobeArgs): string {
  const dry = a.state === 'present' ? shellJoin(['modprobe', '-n', '--', a.name, ...pythonSplit(a.params)]) : shellJoin(['modprobe', '-r', '-n', '--', a.name]);
  const parts = [
    section('bin', 'command -v modprobe'),
    section('release', 'uname -r'),
    section('loaded', "cut -d' ' -f1 /proc/modules"),
    section('builtin', `grep -F -- ${shellQuote(`/${a.name}.ko`)} "/lib/modules/$(uname -r)/modules.builtin"`),
    `if command -v modprobe >/dev/null 2>&1; then ${section('dry', dry)}; fi`,
  ];
  if (a.persistent !== 'disabled') parts.push(section('load', listFiles(MODULES_LOAD)), section('opts', listFiles(PARAMETERS_FILES)));
  return `(${parts.join('\n')})`;
}

export const modprobeProbe = (a: ModprobeArgs): Probe<ModprobeState> => ({ command: modprobeCommand(a), parse: parseModprobe });
