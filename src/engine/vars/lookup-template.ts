// The template and config lookups (lib/ansible/plugins/lookup/{template,config}.py).
// template: a controller file found in templates/ (role, then playbook dir) rendered with the task's
// variables, template_vars= and Ansible's template_* variables; what it returns is a lookup result, so
// data (Ansible wraps lookup results unsafe): it is never rendered again.
// config: the ansible.cfg / ANSIBLE_* settings hostwire reads, else ansible-core's default.
import { readFileSync, statSync } from 'node:fs';
import { homedir, hostname, userInfo } from 'node:os';
import { loadConfig, type HostwireConfig } from '../../config/index.js';
import { findFile } from './lookup-files.js';
import { isPlainObject, pyStr } from './py.js';
import { TemplateFailure } from './undefined.js';

type Vars = Record<string, unknown>;

/** Renders template text with a scope; environment.ts lends it (the environment imports the lookups, not the other way). */
let renderTemplateText: ((text: string, scope: Vars) => unknown) | undefined;
export function lendTemplateRenderer(render: (text: string, scope: Vars) => unknown): void {
  renderTemplateText = render;
}

/** Python's str(datetime): "YYYY-MM-DD HH:MM:SS.ffffff", local time. */
function pyDatetime(d: Date): string {
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds() * 1000, 6)}`;
}

function templateVars(term: string, file: string): Vars {
  const st = statSync(file);
  let uid = String(st.uid);
  try {
    if (st.uid === process.getuid?.()) uid = userInfo().username;
  } catch {
    /* the number stays */
  }
  return {
    template_host: hostname(), template_path: term, template_fullpath: file, template_uid: uid,
    template_mtime: pyDatetime(st.mtime), template_run_date: pyDatetime(new Date()), template_destpath: null,
    ansible_managed: 'Ansible managed',
  };
}

const UNSUPPORTED_TEMPLATE_OPTIONS = ['variable_start_string', 'variable_end_string', 'comment_start_string', 'comment_end_string'];

export function templateLookup(terms: unknown[], kw: Vars, vars: Vars): unknown[] {
  const changed = UNSUPPORTED_TEMPLATE_OPTIONS.find((o) => kw[o] !== undefined);
  if (changed) throw new TemplateFailure(`lookup('template'): ${changed}= is not supported by hostwire (templates use Jinja's default delimiters)`);
  const extra = kw.template_vars ?? {};
  if (!isPlainObject(extra)) throw new TemplateFailure(`lookup('template'): template_vars must be a dict, got ${pyStr(extra)}`);
  return terms.map((t) => {
    const term = pyStr(t);
    const file = findFile(term, vars, 'templates');
    if (!file) throw new TemplateFailure(`the template file ${term} could not be found for the lookup`);
    const text = readFileSync(file, 'utf8');
    // The task's variables stay visible through the prototype (a lazy view is not copied).
    const scope = Object.assign(Object.create(vars) as Vars, templateVars(term, file), extra);
    try {
      if (!renderTemplateText) throw new Error('the template lookup has no renderer (environment.ts lends it)');
      return String(renderTemplateText(text, scope));
    } catch (e) {
      if (e instanceof TemplateFailure) throw new TemplateFailure(`in template lookup file ${file}: ${e.message}`, true, e.undefinedVariable);
      throw e;
    }
  });
}

/** Ansible's setting names (base.yml) for what hostwire reads, with ansible-core's defaults. */
const CONFIG_NAMES: Record<string, { key: keyof HostwireConfig; dflt: unknown }> = {
  DEFAULT_HOST_LIST: { key: 'inventory', dflt: ['/etc/ansible/hosts'] },
  DEFAULT_ROLES_PATH: { key: 'rolesPath', dflt: [`${homedir()}/.ansible/roles`, '/usr/share/ansible/roles', '/etc/ansible/roles'] },
  DEFAULT_REMOTE_USER: { key: 'remoteUser', dflt: null },
  DEFAULT_PRIVATE_KEY_FILE: { key: 'privateKeyFile', dflt: null },
  DEFAULT_FORKS: { key: 'forks', dflt: 5 },
  HOST_KEY_CHECKING: { key: 'hostKeyChecking', dflt: true },
  DEFAULT_TIMEOUT: { key: 'timeout', dflt: 10 },
  DEFAULT_VAULT_PASSWORD_FILE: { key: 'vaultPasswordFile', dflt: null },
  DEFAULT_GATHERING: { key: 'gathering', dflt: 'implicit' },
  DEFAULT_BECOME: { key: 'become', dflt: false },
  DEFAULT_BECOME_METHOD: { key: 'becomeMethod', dflt: 'sudo' },
  DEFAULT_BECOME_USER: { key: 'becomeUser', dflt: 'root' },
  DEFAULT_BECOME_ASK_PASS: { key: 'becomeAskPass', dflt: false },
};

export function configLookup(terms: unknown[], kw: Vars): unknown[] {
  if (kw.plugin_type !== undefined || kw.plugin_name !== undefined) throw new TemplateFailure("lookup('config'): plugin_type/plugin_name (a plugin's settings) are not supported by hostwire");
  const missing = kw.on_missing ?? 'error';
  if (!['error', 'warn', 'skip'].includes(String(missing))) throw new TemplateFailure(`"on_missing" must be a string and one of "error", "warn" or "skip", not ${pyStr(missing)}`);
  const config = loadConfig();
  const out: unknown[] = [];
  for (const t of terms) {
    if (typeof t !== 'string') throw new TemplateFailure(`Invalid setting identifier, "${pyStr(t)}" is not a string`);
    const def = CONFIG_NAMES[t];
    if (!def) {
      if (missing === 'error') throw new TemplateFailure(`Unable to find setting ${t} (hostwire reads ${Object.keys(CONFIG_NAMES).join(', ')})`);
      continue;
    }
    out.push(config[def.key] ?? def.dflt);
  }
  return out;
}
