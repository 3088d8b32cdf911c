import type { ModuleDoc } from '../types.js';

export const ovsFlowsDoc: ModuleDoc = {
  description:
    'The OpenFlow flows carrying one cookie on a bridge are made exactly the given list: missing flows are added, ' +
    'other flows with that cookie deleted (strictly, one by one), flows of other cookies untouched. Flows are compared ' +
    'after normalisation (port names to numbers, field aliases, defaults) against `ovs-ofctl dump-flows` of the cookie.',
  args: {
    bridge: 'The bridge.',
    cookie: 'The cookie that marks the flows this task owns, like 0x999.',
    flows: 'The flows in ovs-ofctl add-flow syntax, without the cookie.',
  },
  example: '- ovs_flows:\n    bridge: br-ex\n    cookie: 0x999\n    flows:\n      - "priority=100,ip,nw_dst=10.0.0.0/24 actions=output:1"',
  check: 'full',
  diff: 'full',
};
