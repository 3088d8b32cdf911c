import type { ModuleDoc } from '../types.js';

export const ovsBridgeDoc: ModuleDoc = {
  description:
    'An Open vSwitch bridge with its datapath type, fail mode and the other_config / external_ids keys given (other ' +
    'keys are left alone). Read with one `ovs-vsctl --format=json find` (merged with the batch\'s other OVS reads), ' +
    'changed with one ovs-vsctl transaction.',
  args: {
    bridge: 'The bridge name.',
    state: 'present or absent.',
    datapath_type: 'system (kernel) or netdev (userspace).',
    fail_mode: 'standalone or secure.',
    other_config: 'other_config keys and values to set.',
    external_ids: 'external_ids keys and values to set.',
  },
  example: '- ovs_bridge:\n    bridge: br-int\n    fail_mode: secure\n    external_ids: { owner: hostwire }',
  check: 'full',
  diff: 'full',
};
