import type { ModuleDoc } from '../types.js';

export const includeVarsDoc: ModuleDoc = {
  description:
    'Loads YAML/JSON variables from controller files (ansible.builtin.include_vars, ansible-core 2.14\'s action): a ' +
    '`file` found through the role\'s vars/ and the playbook\'s vars/ as Ansible finds it, or every file of a `dir` ' +
    '(sorted; depth, files_matching, ignore_files, extensions). The values take include_vars\' place in the precedence - ' +
    'above task vars, below set_fact/register and extra vars - for the rest of the run, and stay templates as vars files ' +
    'do. Registers ansible_facts and ansible_included_var_files; a failure says why in `message` (and msg). Vaulted files ' +
    'are read as vars_files are. A relative `dir` outside a role is taken from the playbook\'s folder.',
  args: {
    _raw_params: 'The file, given as the task\'s value (`include_vars: vars/site.yml`).',
    file: 'The file to load (role vars/, then the role, the playbook\'s vars/, the playbook\'s folder).',
    dir: 'A folder whose files are all loaded, in sorted order (under the role\'s vars/ in a role).',
    depth: 'How many folders of the walk to load (sorted by path; 0: all).',
    files_matching: 'Only files whose name this regular expression finds.',
    ignore_files: 'Regular expressions (a list, or one space-separated string) of names to leave out.',
    extensions: 'The extensions a dir\'s files must have (default yaml, yml, json).',
    ignore_unknown_extensions: 'Leave out files with other extensions instead of failing.',
    name: 'Put the loaded variables under this one variable.',
    hash_behaviour: 'merge: deep-merge each loaded variable (or the name: variable) into its current value - both must be dictionaries: a variable not set yet fails the task, as in Ansible; replace (default).',
  },
  example: '- include_vars:\n    dir: vars/site\n    files_matching: \'\\.yml$\'\n    name: site',
  check: 'full',
  diff: 'none',
};
