#!/bin/sh
# A stand-in for openshift-sdn's node setup (the lab does not run openshift-sdn): br0 on the userspace
# datapath with vxlan0 (port 1) and the gateway port tun0 (port 2), tun0's address, the route to the
# cluster network and a few SDN flows (cookie 0). Run by lab-sdn-standin.service at boot and after every
# Open vSwitch restart - as the real SDN re-creates its flows - after a short delay, so the ramp unit's
# wait for the SDN's flows is exercised.
set -e
gw=${1:-10.128.2.1/23}
cn=${2:-10.128.0.0/14}
ovs-vsctl --may-exist add-br br0 -- set bridge br0 datapath_type=netdev fail-mode=secure \
  -- --may-exist add-port br0 vxlan0 -- set interface vxlan0 type=vxlan options:remote_ip=flow options:key=flow ofport_request=1 \
  -- --may-exist add-port br0 tun0 -- set interface tun0 type=internal ofport_request=2
for i in $(seq 1 50); do ip link show dev tun0 >/dev/null 2>&1 && break; sleep 0.1; done
ip addr replace "$gw" dev tun0
ip link set tun0 up
ip route replace "$cn" dev tun0
sleep 2
ovs-ofctl add-flow br0 "table=0,priority=100,ip,nw_dst=$cn,actions=set_field:192.0.2.99->tun_dst,output:1"
ovs-ofctl add-flow br0 "table=0,priority=50,arp,actions=resubmit(,5)"
ovs-ofctl add-flow br0 "table=5,priority=0,actions=drop"
echo "sdn stand-in: br0 flows set"
