// What kind of module a file is, decided as ansible-core's module_common._find_module_utils decides
// it. The fallback runs new-style Python modules (AnsibleModule and its argument protocol), which is
// what library/ folders and collections ship; the other kinds are refused by name.
const REPLACER = '#<<INCLUDE_ANSIBLE_MODULE_COMMON>>';
const NEW_STYLE_PYTHON = new RegExp(
  [
    'from +\\.{2,} *module_utils.* +import ',
    'from +ansible_collections\\.[^.]+\\.[^.]+\\.plugins\\.module_utils.* +import ',
    'import +ansible_collections\\.[^.]+\\.[^.]+\\.plugins\\.module_utils.*',
    'from +ansible\\.module_utils.* +import ',
    'import +ansible\\.module_utils\\.',
  ].join('|'),
);
const POWERSHELL = /# POWERSHELL_COMMON|#Requires -Module|#Requires -Version|#AnsibleRequires -(OSVersion|Powershell|CSharpUtil)/i;

export type ModuleStyle = 'python' | 'binary' | 'powershell' | 'jsonargs' | 'want_json' | 'old';

/** Ansible's textchars test on the first 1024 bytes. */
function isBinary(data: Buffer): boolean {
  for (const b of data.subarray(0, 1024)) {
    const text = b === 7 || b === 8 || b === 9 || b === 10 || b === 12 || b === 13 || b === 27 || (b >= 0x20 && b !== 0x7f);
    if (!text) return true;
  }
  return false;
}

export function moduleStyle(data: Buffer): ModuleStyle {
  if (isBinary(data)) return 'binary';
  const text = data.toString('latin1');
  if (text.includes(REPLACER) || NEW_STYLE_PYTHON.test(text)) return 'python';
  if (POWERSHELL.test(text)) return 'powershell';
  if (text.includes('<<INCLUDE_ANSIBLE_MODULE_JSON_ARGS>>')) return 'jsonargs';
  if (text.includes('WANT_JSON')) return 'want_json';
  return 'old';
}

const DESCRIBE: Record<Exclude<ModuleStyle, 'python'>, string> = {
  binary: 'a binary module',
  powershell: 'a PowerShell module (Windows)',
  jsonargs: 'a JSONARGS script module',
  want_json: 'a WANT_JSON script module',
  old: 'an old-style module (key=value arguments file)',
};

/** Why hostwire cannot run a module of this style, or undefined when it can. */
export function unsupportedStyle(style: ModuleStyle): string | undefined {
  return style === 'python' ? undefined : `${DESCRIBE[style]}; hostwire's fallback runs Python modules written with AnsibleModule`;
}
