// What ansible.posix's selinux and seboolean read, without libselinux: the runtime mode from
// selinuxfs (/sys/fs/selinux/enforce: 1 enforcing, 0 permissive, absent: SELinux disabled, as
// is_selinux_enabled says), a config file (its mode, owner and bytes, base64: the text is data),
// the policy libselinux reports (SELINUXTYPE of /etc/selinux/config), whether a policy is installed,
// and a boolean's runtime value (/sys/fs/selinux/booleans/NAME: "current pending").
import { ProbeParseError } from '../../errors.js';
import { need, readSections, section } from '../../probe/sections.js';
import { shellQuote } from '../../transports/quote.js';

export const SYSTEM_CONFIG = '/etc/selinux/config';

export type RuntimeState = 'enforcing' | 'permissive' | 'disabled';

export interface ConfigFile {
  mode: string;
  owner: string;
  group: string;
  text: string;
}

const fileRead = (path: string) => {
  const q = shellQuote(path);
  return `if [ -f ${q} ]; then stat -c '%a %U %G' -- ${q} && base64 -w0 -- ${q} && echo; else echo missing; fi`;
};

// selinuxfs files end without a newline ("0", "1 1"): echo ends the line before the section's rc marker.
export const runtimeRead = () => section('runtime', 'if [ -r /sys/fs/selinux/enforce ]; then cat /sys/fs/selinux/enforce && echo; else echo disabled; fi');
export const configRead = (name: string, path: string) => section(name, fileRead(path));
export const policyRead = (policy: string) => section('policy', `if [ -e ${shellQuote(`/etc/selinux/${policy}/policy`)} ]; then echo yes; else echo no; fi`);
export const booleanRead = (name: string) => section('boolean', `f=${shellQuote(`/sys/fs/selinux/booleans/${name}`)}; if [ -r "$f" ]; then cat -- "$f" && echo; else echo missing; fi`);

// The persistent value, as libsemanage's semanage_bool_query reads it: the boolean's default in the
// policy store's kernel policy (/var/lib/selinux/<SELINUXTYPE>/active/policy.kern; setsebool -P and the
// module's commit write local values into it). In that file a boolean is "value state len" (three
// little-endian u32) and then its name: every place the name occurs, the 12 bytes before it.
export const persistentRead = (name: string) => section('persistent', [
  "t=$(sed -n 's/^SELINUXTYPE=//p' /etc/selinux/config 2>/dev/null | head -n 1 | tr -d ' \\t')",
  'f="/var/lib/selinux/${t:-targeted}/active/policy.kern"',
  `if [ -r "$f" ]; then grep -obaF -- ${shellQuote(name)} "$f" | cut -d: -f1 | while read -r o; do [ "$o" -ge 12 ] && od -An -tu4 -j "$((o - 12))" -N 12 -- "$f"; done; echo end; else echo unmanaged; fi`,
].join('; '));

/** The boolean's persistent value; 'unmanaged' without a policy store, 'undefined' when the store has no such boolean. */
export function parsePersistent(stdout: string, name: string): boolean | 'unmanaged' | 'undefined' {
  const lines = need(readSections(stdout), 'persistent', stdout).out.trim().split('\n').map((l) => l.trim());
  if (lines[0] === 'unmanaged') return 'unmanaged';
  if (lines.at(-1) !== 'end') throw new ProbeParseError(`seboolean: cannot read the policy store: ${lines.join(' ').slice(0, 200)}`, stdout);
  for (const l of lines.slice(0, -1)) {
    const m = /^(\d+)\s+([01])\s+(\d+)$/.exec(l);
    if (m && Number(m[1]) > 0 && Number(m[3]) === name.length) return m[2] === '1';
  }
  return 'undefined';
}

export function parseRuntime(stdout: string): RuntimeState {
  const out = need(readSections(stdout), 'runtime', stdout).out.trim();
  if (out === 'disabled') return 'disabled';
  if (out === '1' || out === '0') return out === '1' ? 'enforcing' : 'permissive';
  throw new ProbeParseError(`selinux: /sys/fs/selinux/enforce reads '${out.slice(0, 40)}' (expected 0 or 1)`, stdout);
}

export function parseConfig(stdout: string, name: string): ConfigFile | undefined {
  const s = need(readSections(stdout), name, stdout);
  const [head = '', body = ''] = s.out.split('\n');
  if (head === 'missing') return undefined;
  const m = /^(\d+) (\S+) (\S+)$/.exec(head);
  if (s.rc !== 0 || !m || !/^[A-Za-z0-9+/=]*$/.test(body)) throw new ProbeParseError(`selinux: cannot read the config file: ${s.out.slice(0, 200)}`, stdout);
  return { mode: m[1], owner: m[2], group: m[3], text: Buffer.from(body, 'base64').toString('utf8') };
}

export const parseYes = (stdout: string, name: string) => need(readSections(stdout), name, stdout).out.trim() === 'yes';

/** A boolean's current runtime value, undefined when the kernel has no such boolean. */
export function parseBoolean(stdout: string): boolean | undefined {
  const out = need(readSections(stdout), 'boolean', stdout).out.trim();
  if (out === 'missing') return undefined;
  const m = /^([01])\s+[01]$/.exec(out);
  if (!m) throw new ProbeParseError(`seboolean: the boolean reads '${out.slice(0, 40)}' (expected "current pending")`, stdout);
  return m[1] === '1';
}

/** The value of KEY= in the config text (the module's get_config_state/policy: first match, split at '='). */
export function configValue(text: string, key: 'SELINUX' | 'SELINUXTYPE'): string | undefined {
  const line = text.split(/\r?\n/).find((l) => new RegExp(`^${key}=`).test(l));
  return line === undefined ? undefined : (line.split('=')[1] ?? '').trim();
}

/** The module's set_config_*: every KEY= line replaced, or one appended; every line ends in '\n'. */
export function withConfigValue(text: string, key: 'SELINUX' | 'SELINUXTYPE', value: string): string {
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.at(-1) === '') lines.pop();
  let found = false;
  const out = lines.map((l) => (new RegExp(`^${key}=`).test(l) ? ((found = true), `${key}=${value}`) : l));
  if (!found) out.push(`${key}=${value}`);
  return out.map((l) => `${l}\n`).join('');
}
