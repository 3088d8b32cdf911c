import type { ModuleDoc } from '../types.js';

export const openvswitchDbDoc: ModuleDoc = {
  description:
    "openvswitch.openvswitch.openvswitch_db (collection 2.1.1) as an alias of hostwire's ovs_db: one column, or one key of " +
    "a map column, of one OVSDB record, with the module's argument names and checks (a value for present, a key for a map " +
    "column, True/False lowered); the result's commands are the ovs-vsctl commands run. Refused by name: state read, " +
    'database_socket, a timeout other than 5, state absent without a key.',
  args: {
    state: 'present or absent (read is refused).',
    table: 'The OVSDB table, like Bridge or Open_vSwitch.',
    record: 'The record: a name, or . for the only row of Open_vSwitch.',
    col: 'The column.',
    key: 'A key of a map column (required for a map column).',
    value: 'The value to set (required for present).',
    timeout: 'Must be 5 (ovs-vsctl --timeout=5, as ovs_db runs it).',
    database_socket: 'Refused: hostwire talks to the default OVSDB socket.',
  },
  example: '- openvswitch_db:\n    table: Bridge\n    record: br-int\n    col: other_config\n    key: disable-in-band\n    value: "true"',
  check: 'full',
  diff: 'full',
};
