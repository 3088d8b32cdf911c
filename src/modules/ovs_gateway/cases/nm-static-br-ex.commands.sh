DNS=10.138.160.1
echo "@@cmd"; nmcli connection add type ovs-bridge con-name br-ex connection.interface-name br-ex ovs-bridge.datapath-type netdev 802-3-ethernet.mtu 1500 save no 2>&1; echo "@@rc $?"
echo "@@cmd"; nmcli connection add type ovs-port con-name ovs-port-br-ex connection.interface-name br-ex connection.master br-ex connection.slave-type ovs-bridge save no 2>&1; echo "@@rc $?"
echo "@@cmd"; nmcli connection add type ovs-port con-name ovs-port-phys0 connection.interface-name eth0 connection.master br-ex connection.slave-type ovs-bridge save no 2>&1; echo "@@rc $?"
echo "@@cmd"; nmcli connection add type 802-3-ethernet con-name ovs-if-phys0 connection.interface-name eth0 connection.master ovs-port-phys0 connection.slave-type ovs-port connection.autoconnect-priority 100 802-3-ethernet.mtu 1500 802-3-ethernet.cloned-mac-address 5e:25:10:7d:58:14 save no 2>&1; echo "@@rc $?"
echo "@@cmd"; nmcli connection add type ovs-interface con-name ovs-if-br-ex connection.interface-name br-ex connection.master ovs-port-br-ex connection.slave-type ovs-port 802-3-ethernet.mtu 1500 802-3-ethernet.cloned-mac-address 5e:25:10:7d:58:14 ipv4.method manual ipv4.addresses 10.138.160.11/24 ipv4.gateway 10.138.160.1 ipv6.method ignore ipv4.may-fail no ipv4.route-metric 48 ipv6.route-metric 48 ${DNS:+ipv4.dns "$DNS"} save no 2>&1; echo "@@rc $?"
echo "@@show"; nmcli -t -f NAME,TYPE,DEVICE connection show | sort
echo "@@props"; nmcli -t -f connection.id,connection.type,connection.interface-name,connection.master,connection.slave-type,ovs-bridge.datapath-type connection show br-ex ovs-port-br-ex ovs-port-phys0 2>&1
echo "@@ifbr"; nmcli -t -f connection.id,ipv4.method,ipv4.addresses,ipv4.gateway,ipv4.dns,ipv4.route-metric,ipv4.may-fail,802-3-ethernet.mtu,802-3-ethernet.cloned-mac-address connection show ovs-if-br-ex 2>&1
echo "@@ifphys"; nmcli -t -f connection.id,connection.master,connection.autoconnect-priority,802-3-ethernet.cloned-mac-address connection show ovs-if-phys0 2>&1
echo "@@up"; nmcli --wait 60 connection up ovs-if-br-ex 2>&1; echo "@@rc $?"
echo "@@down"; nmcli connection delete ovs-if-br-ex ovs-if-phys0 ovs-port-phys0 ovs-port-br-ex br-ex 2>/dev/null || true; nmcli -t -f NAME connection show | sort
