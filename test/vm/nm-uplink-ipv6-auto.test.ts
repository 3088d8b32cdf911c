// configure_ovs (mode uplink) with the nm backend on uplinks whose IPv6 comes from a router, for real: both lab
// hosts run NM with its OVS plugin (`lab up --nm-ovs`, netdev datapath); the second sends router advertisements
// with dnsmasq - stateful (DHCPv6: RAs say managed), SLAAC only, or both (an autonomous prefix too) - and the first host's eth0, the uplink the
// session itself runs over, takes its IPv6 through an NM profile (ipv6.method auto, IPv4 static); or the second
// serves DHCPv6 without RAs and eth0's profile has ipv6.method dhcp with its own default route (ipv6.routes
// ::/0 via the lab's link-local), which moves onto ovs-if-br-ex as a route at metric 48. The shared
// scenario (test/roles-lab/ipv6-auto-scenario.ts): a withheld confirmation gives eth0 back exactly its addresses
// and routes (NM re-activates its profile, no ovs-* profile left); the move gives MCO's five profiles and keeps
// the same IPv6 address - DHCPv6: ovs-if-br-ex sends eth0's DUID and IAID, the server's one lease stays the
// same - and the router's default route at metric 48 on br-ex; ping and SSH over IPv6; a second run and --check
// change nothing; after `lab reboot` the boot oneshot makes the same profiles, the address, lease and default
// route come back and a run changes nothing. In the VM tier (npm run test:vm).
import test from 'ava';
import { ipv6AutoScenario } from '../roles-lab/ipv6-auto-scenario.js';
import { vmLabName } from './lab-name.js';

test.serial('nm backend, DHCPv6 uplink (NM, RAs managed): rollback exactly, the same lease and RA route on br-ex, idempotent, back after a reboot', (t) =>
  ipv6AutoScenario(t, vmLabName('vmnmdhcp6'), 'dhcp6', 'fd5c:62', { nmOvs: true, reboot: true }));
test.serial('nm backend, SLAAC and DHCPv6 together (RAs managed, prefix autonomous): both addresses and the RA route on br-ex, idempotent, back after a reboot', (t) =>
  ipv6AutoScenario(t, vmLabName('vmnmmixed'), 'mixed', 'fd5c:64', { nmOvs: true, reboot: true }));
test.serial('nm backend, SLAAC on the session\'s own uplink eth0 (NM): rollback exactly, the same address and RA route on br-ex, idempotent, back after a reboot', (t) =>
  ipv6AutoScenario(t, vmLabName('vmnmsl6'), 'slaac', 'fd5c:63', { nmOvs: true, reboot: true }));
test.serial('nm backend, DHCPv6 without RAs (NM ipv6.method dhcp, the profile\'s default route): rollback exactly, the same lease and route on br-ex, idempotent, back after a reboot', (t) =>
  ipv6AutoScenario(t, vmLabName('vmnmd6only'), 'dhcp6only', 'fd5c:65', { nmOvs: true, reboot: true }));
test.serial('nm backend, IPv6-only SLAAC uplink (NM profile without IPv4; hostwire over IPv6): rollback exactly, the same address and RA route on br-ex, idempotent, back after a reboot at the same address', (t) =>
  ipv6AutoScenario(t, vmLabName('vmnmv6sl'), 'slaac', 'fd5c:66', { nmOvs: true, reboot: true, v6only: true }));
