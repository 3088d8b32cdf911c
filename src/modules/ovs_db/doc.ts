import type { ModuleDoc } from '../types.js';

export const ovsDbDoc: ModuleDoc = {
  description:
    'One column, or one key of a map column, of one OVSDB record, like `ovs-vsctl set Open_vSwitch . ' +
    'other_config:n-handler-threads=2`; state absent removes the key (or clears the column).',
  args: {
    table: 'The OVSDB table, like Open_vSwitch, Bridge, Interface.',
    record: 'The record: a name or . for the table\'s only row.',
    col: 'The column.',
    key: 'A key of a map column (other_config, external_ids).',
    value: 'The value to set.',
    state: 'present or absent.',
  },
  example: '- ovs_db:\n    table: Open_vSwitch\n    record: .\n    col: other_config\n    key: n-handler-threads\n    value: 2',
  check: 'full',
  diff: 'full',
};
