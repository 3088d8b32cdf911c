// configure_ovs (mode uplink, ovs backend) on uplinks whose IPv6 comes from a router, for real: the second
// lab host sends router advertisements with dnsmasq (SLAAC only, or stateful: DHCPv6), the first host's eth0
// takes its IPv6 through a NetworkManager profile (ipv6.method auto; IPv4 static as before), or, in a third
// test, through the kernel's own SLAAC (no NM profile; the rollback cycles the link for a router solicitation);
// one host is IPv6-only (its NM profile without IPv4, hostwire connecting over IPv6 throughout; it writes the
// lab's IPv6-only marker, so a power cycle brings eth0 up without the lab's IPv4 address). A withheld
// confirmation gives eth0 back exactly its addresses and routes through that profile; the move keeps the same
// IPv6 address (SLAAC: the same interface identifier, NM's stable-privacy one; DHCPv6: the same lease, same
// DUID/IAID) and the router's default route, at metric 48, on br-ex under systemd-networkd; the lab's
// namespace reaches the host over IPv6 (ping, SSH) on that address; a second run and --check change nothing.
import test from 'ava';
import { ipv6AutoScenario as scenario } from './ipv6-auto-scenario.js';
import { testLabName } from '../helpers/lab-name.js';

test.serial('a SLAAC uplink (NetworkManager) keeps its IPv6 address and default route through the rollback, the move and a reboot', (t) => scenario(t, testLabName('v6us'), 'slaac', 'fd5c:23', { reboot: true }));
test.serial('the kernel\'s own SLAAC (eth0 outside NetworkManager) keeps its EUI-64 address and default route through the rollback and the move', (t) => scenario(t, testLabName('v6uk'), 'slaac', 'fd5c:25', { nm: false }));
test.serial('a DHCPv6 uplink (NetworkManager, IPv6 forwarding on) keeps its lease and default route through the rollback and the move', (t) => scenario(t, testLabName('v6ud'), 'dhcp6', 'fd5c:24', { forwarding: true }));
test.serial('a DHCPv6 uplink without RAs (NetworkManager ipv6.method dhcp, the profile\'s own default route) keeps its lease and route through the rollback, the move and a reboot', (t) => scenario(t, testLabName('v6u6o'), 'dhcp6only', 'fd5c:27', { reboot: true }));
test.serial('an IPv6-only SLAAC uplink (NetworkManager, no IPv4 at all; hostwire over IPv6) keeps its address and default route through the rollback, the move and a reboot', (t) => scenario(t, testLabName('v6uo'), 'slaac', 'fd5c:26', { v6only: true, reboot: true }));
