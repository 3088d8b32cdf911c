// Ansible's iptables arguments: the rule words as ansible-core 2.14's construct_rule builds them, and
// the checks its argument_spec and main() make. Expected words: the `rule` ansible -m iptables --check
// returned on a lab host for the same arguments (joined by spaces; for log_prefix, with the LOG jump main()
// adds after computing it).
import test from 'ava';
import { iptablesModule, planIptables, probeCommand, readIptables, type IptablesArgs } from '../../src/modules/iptables/iptables.js';
import { constructRule } from '../../src/modules/iptables/ansible-rule.js';
import { formatArgsError } from '../../src/engine/runner/args-error.js';
import { loadCase } from './net-cases.js';

const args = (a: Record<string, unknown>) => iptablesModule.args.parse(a) as IptablesArgs;
const refused = (a: Record<string, unknown>) => {
  const r = iptablesModule.args.safeParse(a);
  return r.success ? 'accepted' : formatArgsError('iptables', r.error, a);
};

const ANSIBLE_RULES: [Record<string, unknown>, string][] = [
  [{"chain": "INPUT", "protocol": "tcp", "destination_port": 22, "ctstate": ["NEW"], "jump": "ACCEPT", "comment": "ssh in"}, "-p tcp -j ACCEPT --destination-port 22 -m conntrack --ctstate NEW -m comment --comment ssh in"],
  [{"table": "nat", "chain": "POSTROUTING", "source": "10.244.0.0/16", "destination": "!10.244.0.0/16", "jump": "MASQUERADE", "out_interface": "eth0"}, "-s 10.244.0.0/16 ! -d 10.244.0.0/16 -j MASQUERADE -o eth0"],
  [{"chain": "FORWARD", "action": "insert", "rule_num": 1, "in_interface": "eth0", "match": ["conntrack"], "ctstate": "ESTABLISHED,RELATED", "jump": "ACCEPT"}, "-m conntrack -j ACCEPT -i eth0 --ctstate ESTABLISHED,RELATED"],
  [{"chain": "INPUT", "protocol": "tcp", "destination_ports": ["80", "443"], "src_range": "10.0.0.1-10.0.0.9", "limit": "5/min", "limit_burst": "10", "log_prefix": "web: ", "log_level": "info"}, "-p tcp -j LOG --log-prefix web:  --log-level info -m multiport --dports 80,443 -m iprange --src-range 10.0.0.1-10.0.0.9 -m limit --limit 5/min --limit-burst 10"],
  [{"chain": "INPUT", "protocol": "icmp", "icmp_type": "echo-request", "reject_with": "icmp-host-prohibited"}, "-p icmp -j REJECT --reject-with icmp-host-prohibited --icmp-type echo-request"],
  [{"chain": "AR-CHAIN", "chain_management": true, "protocol": "udp", "jump": "RETURN"}, "-p udp -j RETURN"],
  [{"table": "nat", "chain": "PREROUTING", "protocol": "tcp", "destination_port": "8080", "jump": "DNAT", "to_destination": "10.0.0.5:80"}, "-p tcp -j DNAT --to-destination 10.0.0.5:80 --destination-port 8080"],
  [{"ip_version": "ipv6", "chain": "INPUT", "protocol": "tcp", "syn": "match", "destination_port": 443, "jump": "ACCEPT"}, "-p tcp -j ACCEPT --destination-port 443 --syn"],
  [{"chain": "OUTPUT", "protocol": "tcp", "tcp_flags": {"flags": ["ALL"], "flags_set": ["ACK", "SYN"]}, "uid_owner": "0", "jump": "ACCEPT"}, "-p tcp --tcp-flags ALL ACK,SYN -j ACCEPT -m owner --uid-owner 0"],
];

test('construct_rule: the words Ansible builds, in its order', (t) => {
  for (const [a, words] of ANSIBLE_RULES) t.is(constructRule(args(a)).join(' '), words, JSON.stringify(a));
});

test("argument checks of Ansible's module, before the run", (t) => {
  t.regex(refused({ protocol: 'tcp', jump: 'ACCEPT' }), /Either chain or flush parameter must be specified\./);
  t.regex(refused({ chain: 'INPUT', flush: true, policy: 'DROP' }), /parameters are mutually exclusive: flush\|policy/);
  t.regex(refused({ chain: 'PREROUTING', table: 'mangle', jump: 'TEE' }), /jump is TEE but all of the following are missing: gateway/);
  t.regex(refused({ chain: 'INPUT', jump: 'DROP', log_prefix: 'x' }), /Logging options can only be used with the LOG jump target\./);
  t.regex(refused({ chain: 'INPUT', set_dscp_mark: '1', set_dscp_mark_class: 'CS1', jump: 'DSCP' }), /mutually exclusive: set_dscp_mark\|set_dscp_mark_class/);
  t.regex(refused({ chain: 'INPUT', log_level: 'loud' }), /argument 'log_level'/);
  t.regex(refused({ chain: 'INPUT', rule: '-j ACCEPT', protocol: 'tcp' }), /'rule' \(iptables words\) cannot be combined with Ansible's rule arguments \(protocol\)/);
  t.regex(refused({ chain: 'INPUT', jump: 'ACCEPT', source: '10.0.0.1\n-A INPUT' }), /argument 'source': contains .* must fit on one line/);
  t.regex(refused({ chain: 'INPUT' }), /expected a rule/);
  t.regex(refused({ chain: 'INPUT', ip_version: 'ipv5', jump: 'ACCEPT' }), /argument 'ip_version'/);
  t.is(args({ chain: 'INPUT', jump: 'ACCEPT', ip_version: 'ipv6' }).ip_version, 6);
  t.deepEqual(args({ chain: 'INPUT', jump: 'ACCEPT', ctstate: 'ESTABLISHED, RELATED' }).ctstate, ['ESTABLISHED', 'RELATED']);
});

test('insert with rule_num, wait beside -t, values quoted as words', (t) => {
  const a = args({ chain: 'INPUT', action: 'insert', rule_num: 2, wait: 5, protocol: 'tcp', destination_port: 22, jump: 'ACCEPT', comment: "it's; rm -rf /" });
  const quoted = `--comment 'it'\\''s; rm -rf /'`;
  t.true(probeCommand(a).includes(`{ iptables -w 5 -t filter -C INPUT -p tcp -j ACCEPT --destination-port 22 -m comment ${quoted} ; }`));
  const s = readIptables(loadCase('iptables', 'ansible-ssh-ctstate').stdout, 'INPUT');
  const [c] = planIptables({ ...s, present: false }, a);
  t.is(c.run.at(-1), `iptables -w 5 -t filter -I INPUT 2 -p tcp -j ACCEPT --destination-port 22 -m comment ${quoted}`);
  t.regex(planIptables({ ...s, present: false }, args({ chain: 'INPUT', action: 'insert', jump: 'DROP' }))[0].run[0], /-I INPUT -j DROP$/);
});

test('flush and chain_management converge: nothing to flush, chain already there', (t) => {
  const s = readIptables(loadCase('iptables', 'ansible-chain-management').stdout, 'AR-CHAIN');
  t.deepEqual(planIptables(s, args({ chain: 'AR-CHAIN', chain_management: true })), []);
  t.deepEqual(planIptables({ ...s, rules: [] }, args({ chain: 'AR-CHAIN', flush: true })), []);
  t.deepEqual(planIptables(s, args({ chain: 'AR-CHAIN', state: 'absent' })), [], 'without chain_management no chain is deleted');
});
