import type { ModuleDoc } from '../types.js';

export const validateArgumentSpecDoc: ModuleDoc = {
  description:
    'Checks values against an argument spec as ansible.builtin.validate_argument_spec does (required, type with ' +
    'Ansible\'s conversions, elements, choices, nested options, unsupported names), failing with "Validation of ' +
    'arguments failed" and the list of errors. A role with meta/argument_specs.yml gets this task first, as in Ansible ' +
    '(rolespec_validate: false on include_role/import_role turns it off). Values come from the task\'s variables of ' +
    'the same names, with provided_arguments on top. Acts on nothing.',
  args: {
    argument_spec: 'The options of the spec: name -> {type, required, choices, elements, options, aliases, default}.',
    provided_arguments: 'Values checked on top of the variables of the same names.',
    validate_args_context: 'What is being validated (role name, entry point), returned in the result.',
  },
  example: '- validate_argument_spec:\n    argument_spec:\n      port: {type: int, required: true}\n    provided_arguments:\n      port: "{{ app_port }}"',
  check: 'full',
  diff: 'none',
};
