DNS=$(nmcli -g ipv4.dns connection show uuid a55385bf-fff4-4e3d-a804-83ee3d394645 2>/dev/null | tr -d '\\')
DNS6=$(nmcli -g ipv6.dns connection show uuid a55385bf-fff4-4e3d-a804-83ee3d394645 2>/dev/null | tr -d '\\')
echo "@@olddns $DNS|$DNS6"
echo "@@before"; ip -o -6 addr show dev eth0 scope global | awk '{print $4}' | sort; nmcli -t -f DHCP6 device show eth0
mkdir -p /run/hostwire
echo "@@cmd"; nmcli connection add type ovs-bridge con-name br-ex connection.uuid ba005f70-c784-4382-b160-44b3ccac9e3c connection.interface-name br-ex ovs-bridge.datapath-type netdev 802-3-ethernet.mtu 1500 save no 2>&1; echo "@@rc $?"
echo "@@cmd"; nmcli connection add type ovs-port con-name ovs-port-br-ex connection.uuid 94070c4b-b688-4d40-9a2c-c2c829ed5f7b connection.interface-name br-ex connection.master ba005f70-c784-4382-b160-44b3ccac9e3c connection.slave-type ovs-bridge save no 2>&1; echo "@@rc $?"
echo "@@cmd"; nmcli connection add type ovs-port con-name ovs-port-phys0 connection.uuid 4fd0e16c-56f8-4a51-969d-e2c6a7230452 connection.interface-name eth0 connection.master ba005f70-c784-4382-b160-44b3ccac9e3c connection.slave-type ovs-bridge save no 2>&1; echo "@@rc $?"
echo "@@cmd"; nmcli connection add type 802-3-ethernet con-name ovs-if-phys0 connection.interface-name eth0 connection.master 4fd0e16c-56f8-4a51-969d-e2c6a7230452 connection.slave-type ovs-port connection.autoconnect-priority 100 802-3-ethernet.mtu 1500 802-3-ethernet.cloned-mac-address 0a:58:0a:8e:cf:0b save no 2>&1; echo "@@rc $?"
echo "@@cmd"; nmcli connection add type ovs-interface con-name ovs-if-br-ex connection.interface-name br-ex connection.master 94070c4b-b688-4d40-9a2c-c2c829ed5f7b connection.slave-type ovs-port connection.autoconnect no 802-3-ethernet.mtu 1500 ipv4.method manual ipv4.addresses 10.142.207.11/24 ipv4.gateway 10.142.207.1 ipv6.method auto ipv6.addr-gen-mode eui64 ipv6.token ::178d:f3db:7da1:648f ipv6.dhcp-duid 00:04:fc:59:fa:33:68:f2:eb:4e:e2:d0:14:d0:08:44:6b:cb ipv6.dhcp-iaid 2b:50:67:35 ipv4.may-fail no ipv6.may-fail no ipv4.route-metric 48 ipv6.route-metric 48 ${DNS:+ipv4.dns "$DNS"} ${DNS6:+ipv6.dns "$DNS6"} save no 2>&1; echo "@@rc $?"
echo "@@ifbr"; nmcli -t -f connection.id,ipv4.method,ipv4.addresses,ipv6.method,ipv6.addr-gen-mode,ipv6.token,ipv6.dhcp-duid,ipv6.dhcp-iaid,ipv6.route-metric,ipv6.may-fail connection show ovs-if-br-ex 2>&1
echo "@@up"; ( nmcli --wait 60 connection up ovs-if-phys0 >"/run/hostwire/nm-br-ex.$$" 2>&1 & phys=$!
i=0; until ovs-vsctl --timeout=5 br-exists br-ex; do i=$((i+1)); [ $i -lt 150 ] || { echo "NetworkManager made no OVS bridge br-ex in 30 s"; exit 1; }; sleep 0.2; done
ovs-vsctl --timeout=10 set bridge br-ex 'other_config:hwaddr="0a:58:0a:8e:cf:0b"'
nmcli --wait 60 connection up ovs-if-br-ex
wait $phys || { cat "/run/hostwire/nm-br-ex.$$"; rm -f "/run/hostwire/nm-br-ex.$$"; exit 1; }
rm -f "/run/hostwire/nm-br-ex.$$"
nmcli connection modify --temporary ovs-if-br-ex connection.autoconnect yes
) 2>&1; echo "@@rc $?"
echo "@@addr"; for i in $(seq 150); do [ "$(ip -6 -o addr show dev br-ex scope global -tentative | wc -l)" -ge 2 ] && break; sleep 0.2; done; ip -o -6 addr show dev br-ex scope global | awk '{print $4}' | sort
echo "@@routes"; for i in $(seq 100); do ip -6 route show default dev br-ex | grep -q . && break; sleep 0.2; done; ip -6 route show default dev br-ex
echo "@@dhcp6"; nmcli -t -f DHCP6 device show br-ex
echo "@@eth0"; ip -o addr show dev eth0 scope global | awk '{print $3, $4}'
