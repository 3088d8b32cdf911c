import type { ModuleDoc } from '../types.js';

export const subnetLeaseDoc: ModuleDoc = {
  description:
    'Gives this node one subnet of the cluster (pod) network and keeps it across runs, as flannel (or OpenShift SDN) ' +
    'allocates it. It runs on the controller and acts through a store - a JSON file beside the inventory, or etcd ' +
    'through etcdctl on the task\'s host - because choosing a subnet and writing it must happen under one lock or in ' +
    'one etcd transaction. Under --check it computes the subnet without writing. The result registers subnet, network ' +
    'and subnet_len. See subnet_lease/README.md.',
  args: {
    network: 'The cluster network as a CIDR (flannel Network); never changed once stored.',
    subnet_len: 'The prefix length of each node\'s subnet (flannel SubnetLen); never changed once stored.',
    subnet_min: 'flannel style: the first subnet that may be given out (SubnetMin).',
    subnet_max: 'flannel style: the last subnet that may be given out (SubnetMax).',
    style: 'flannel (SubnetMin..SubnetMax, the first subnet skipped) or openshift (rotated order, round-robin cursor).',
    pick: 'flannel style: lowest free subnet (predictable) or random among the first 100 free, as flanneld.',
    store: 'file or etcd.',
    state_file: 'store file: the JSON file on the controller (default {{ inventory_dir }}/.hostwire/subnets.json).',
    etcd_endpoints: 'store etcd: the endpoints, a comma-separated string or a list.',
    etcd_cacert: 'store etcd: the CA certificate file on the host that runs etcdctl.',
    etcd_cert: 'store etcd: the client certificate (with etcd_key).',
    etcd_key: 'store etcd: the client key (with etcd_cert).',
    prefix: 'The flannel etcd prefix (openshift-ansible used /openshift.com/network).',
    public_ip: 'The node\'s own IP (default ansible_default_ipv4.address); flannel finds a lease by it.',
    backend_type: 'Written to the network config (Backend.Type) and to each lease.',
    node: 'The node\'s name (default inventory_hostname); the file store keys leases by it.',
    ttl: 'The etcd lease TTL in seconds; 0: none (a reservation flanneld keeps).',
    state: 'present: allocate or keep; absent: release the node\'s lease.',
    subnet_file: 'flannel\'s --subnet-file (/run/flannel/subnet.env): where --check finds the subnet when etcd does not answer.',
  },
  example: '- subnet_lease:\n    network: 10.244.0.0/16\n    store: etcd\n  register: lease',
  check: 'full',
  diff: 'full',
};
