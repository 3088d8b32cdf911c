// Vars a user marks secret: every name listed in `hostwire_secret_vars` (a list, in any vars
// source), and every var whose name starts with `vault_` or `secret_` (Ansible's convention for
// vault-backed vars). Their rendered values are registered when a play starts on a host.
import { addSecretsDeep } from './secrets.js';

export const SECRET_VARS_KEY = 'hostwire_secret_vars';
const SECRET_NAME = /^(?:vault|secret)_/;

/** `vars` is a host's templated view; a var that cannot render yet (needs facts) is skipped. */
export function registerSecretVars(vars: Record<string, unknown>): void {
  const listed = read(vars, SECRET_VARS_KEY);
  const names = new Set<string>(Array.isArray(listed) ? listed.map(String) : typeof listed === 'string' ? listed.split(',').map((s) => s.trim()) : []);
  for (const k of Object.keys(vars)) if (SECRET_NAME.test(k)) names.add(k);
  for (const name of names) if (name in vars) addSecretsDeep(read(vars, name));
}

function read(vars: Record<string, unknown>, key: string): unknown {
  try {
    return vars[key];
  } catch {
    return undefined;
  }
}
