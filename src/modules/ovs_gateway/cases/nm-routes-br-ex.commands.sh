DNS=10.138.160.1
DNS6=
mkdir -p /run/hostwire
echo "@@cmd"; nmcli connection add type ovs-bridge con-name br-ex connection.uuid ba005f70-c784-4382-b160-44b3ccac9e3c connection.interface-name br-ex ovs-bridge.datapath-type netdev 802-3-ethernet.mtu 1500 save no 2>&1; echo "@@rc $?"
echo "@@cmd"; nmcli connection add type ovs-port con-name ovs-port-br-ex connection.uuid 94070c4b-b688-4d40-9a2c-c2c829ed5f7b connection.interface-name br-ex connection.master ba005f70-c784-4382-b160-44b3ccac9e3c connection.slave-type ovs-bridge save no 2>&1; echo "@@rc $?"
echo "@@cmd"; nmcli connection add type ovs-port con-name ovs-port-phys0 connection.uuid 4fd0e16c-56f8-4a51-969d-e2c6a7230452 connection.interface-name eth9 connection.master ba005f70-c784-4382-b160-44b3ccac9e3c connection.slave-type ovs-bridge save no 2>&1; echo "@@rc $?"
echo "@@cmd"; nmcli connection add type 802-3-ethernet con-name ovs-if-phys0 connection.interface-name eth9 connection.master 4fd0e16c-56f8-4a51-969d-e2c6a7230452 connection.slave-type ovs-port connection.autoconnect-priority 100 802-3-ethernet.mtu 1500 802-3-ethernet.cloned-mac-address e2:c6:a4:2a:68:d0 save no 2>&1; echo "@@rc $?"
echo "@@cmd"; nmcli connection add type ovs-interface con-name ovs-if-br-ex connection.interface-name br-ex connection.master 94070c4b-b688-4d40-9a2c-c2c829ed5f7b connection.slave-type ovs-port connection.autoconnect no 802-3-ethernet.mtu 1500 ipv4.method manual ipv4.addresses 10.138.160.11/24 ipv4.gateway 10.138.160.1 ipv4.routes '10.99.0.0/16 10.138.160.5 100, 10.98.0.0/16 0' ipv6.method ignore ipv4.may-fail no ipv4.route-metric 48 ipv6.route-metric 48 ${DNS:+ipv4.dns "$DNS"} save no 2>&1; echo "@@rc $?"
echo "@@show"; nmcli -t -f NAME,TYPE,DEVICE connection show | sort
echo "@@ifbr"; nmcli -t -f connection.id,connection.autoconnect,ipv4.method,ipv4.addresses,ipv4.gateway,ipv4.dns,ipv4.may-fail,ipv6.method,ipv6.addr-gen-mode,ipv6.token,ipv6.addresses,ipv6.gateway,ipv6.dns,ipv6.route-metric,ipv6.may-fail,802-3-ethernet.mtu connection show ovs-if-br-ex 2>&1
echo "@@up"; ( nmcli --wait 60 connection up ovs-if-phys0 >"/run/hostwire/nm-br-ex.$$" 2>&1 & phys=$!
i=0; until ovs-vsctl --timeout=5 br-exists br-ex; do i=$((i+1)); [ $i -lt 150 ] || { echo "NetworkManager made no OVS bridge br-ex in 30 s"; exit 1; }; sleep 0.2; done
ovs-vsctl --timeout=10 set bridge br-ex 'other_config:hwaddr="e2:c6:a4:2a:68:d0"'
nmcli --wait 60 connection up ovs-if-br-ex
wait $phys || { cat "/run/hostwire/nm-br-ex.$$"; rm -f "/run/hostwire/nm-br-ex.$$"; exit 1; }
rm -f "/run/hostwire/nm-br-ex.$$"
nmcli connection modify --temporary ovs-if-br-ex connection.autoconnect yes
) 2>&1; echo "@@rc $?"
echo "@@active"; nmcli -t -f NAME,TYPE,DEVICE connection show --active | sort; ovs-vsctl get bridge br-ex datapath_type; ovs-vsctl list-ports br-ex; cat /sys/class/net/br-ex/address
echo "@@addr"; for i in $(seq 50); do ip -6 addr show dev br-ex scope global | grep -q tentative || break; sleep 0.2; done; ip -o addr show dev br-ex scope global | awk '{print $3, $4}'
echo "@@routes"; ip route show default dev br-ex; ip -6 route show default dev br-ex
echo "@@nmroutes"; nmcli -g ipv4.routes connection show ovs-if-br-ex
echo "@@allroutes"; ip route show dev br-ex
echo "@@dns"; nmcli -t -f IP4.DNS,IP6.DNS device show br-ex
echo "@@down"; nmcli connection delete ovs-if-br-ex ovs-if-phys0 ovs-port-phys0 ovs-port-br-ex br-ex 2>/dev/null || true; nmcli -t -f NAME connection show | sort; ovs-vsctl list-br
