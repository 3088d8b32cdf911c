// Ansible's `environment:` keyword: mappings from the play, blocks/roles and the task (outer first,
// inner wins per name), each rendered with the task's vars, exported only for modules that run
// something with it (command, shell); anything else that would silently drop it is refused.
import { BadInputError, type SourceLoc } from '../../errors.js';
import { renderValue } from '../vars/index.js';
import type { Vars } from '../playbook/types.js';
import type { Module } from '../../modules/types.js';
import { setOwn } from '../../own-keys.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const envText = (v: unknown): string =>
  typeof v === 'boolean' ? (v ? 'True' : 'False') : v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

export function renderEnvironment(layers: unknown[], vars: Vars, loc?: SourceLoc): Record<string, string> {
  const env: Record<string, string> = {};
  for (const layer of layers) {
    const rendered = renderValue(layer, vars, loc);
    if (rendered === null || rendered === undefined || rendered === '') continue;
    if (typeof rendered !== 'object' || Array.isArray(rendered)) {
      throw new BadInputError(`environment must be a mapping of variable names to values, got ${JSON.stringify(rendered)}`, loc);
    }
    for (const [name, value] of Object.entries(rendered as Vars)) {
      if (!ENV_NAME.test(name)) throw new BadInputError(`environment: '${name}' is not a valid environment variable name`, loc);
      setOwn(env, name, envText(value));
    }
  }
  return env;
}

/**
 * Native modules whose result no environment variable can change (they manage files, kernel and
 * local daemon state with fixed tools): a play-wide `environment:` (a proxy, a locale) is moot there.
 * Modules that reach the network or read tool-specific variables (package, etcd_key, subnet_lease)
 * are not listed: for them the keyword is refused rather than silently dropped.
 */
const ENV_INDEPENDENT = new Set([
  'file', 'copy', 'template', 'lineinfile', 'ini_file', 'sysctl', 'systemd_unit', 'service', 'wait_for', 'ip_link', 'ip_addr',
  'ip_route', 'ovs_bridge', 'ovs_port', 'ovs_db', 'ovs_flows', 'ovs_gateway', 'iptables', 'firewalld', 'nm_connection', 'route_set',
]);

/** The environment a module gets; refused (not dropped) for a module that would need it but cannot pass it on. */
export function environmentFor(mod: Module<any, any>, env: Record<string, string>, loc?: SourceLoc): Record<string, string> | undefined {
  if (Object.keys(env).length === 0 || mod.environment === 'irrelevant' || ENV_INDEPENDENT.has(mod.name)) return undefined;
  if (mod.environment === 'applies') return env;
  throw new BadInputError(`environment is not supported for the '${mod.name}' module (hostwire passes it to command and shell; this module's tools would need it): ${Object.keys(env).join(', ')}`, loc);
}
