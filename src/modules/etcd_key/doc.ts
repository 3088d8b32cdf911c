import type { ModuleDoc } from '../types.js';

export const etcdKeyDoc: ModuleDoc = {
  description:
    'One key in etcd, through etcdctl (API v3) on the host. JSON values (objects, lists) are written in a stable form ' +
    'and compared as data. An etcd that does not answer fails a real run; under --check it is reported as drift (the ' +
    'value shown as unknown) and the run goes on.',
  args: {
    key: 'The key, like /coreos.com/network/config.',
    value: 'The value: a string, number or boolean, or an object/list written as JSON.',
    endpoints: 'The etcd endpoints: a comma-separated string or a list.',
    cacert: 'The CA certificate file on the host (TLS).',
    cert: 'The client certificate file on the host.',
    key_file: 'The client key file on the host.',
    mode: 'exact: the key holds this value; create: set it only when the key is missing.',
    state: 'present or absent.',
  },
  example: '- etcd_key:\n    key: /coreos.com/network/config\n    value: { Network: 10.244.0.0/16, Backend: { Type: host-gw } }\n    mode: create',
  check: 'full',
  diff: 'full',
};
