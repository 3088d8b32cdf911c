# State a role leaves on a lab host, for comparing hostwire's with ansible-playbook's (scripts/real-roles.sh);
# uuids, timestamps and packet counters left out.
echo "== firewalld"; systemctl is-active firewalld; systemctl is-enabled firewalld
firewall-cmd --get-default-zone 2>&1
firewall-cmd --list-all-zones 2>&1
echo "== firewalld permanent"; firewall-cmd --permanent --list-all-zones 2>&1
echo "== zone files"; for f in /etc/firewalld/zones/*.xml; do [ -e "$f" ] && { echo "-- $f"; cat "$f"; }; done
echo "== nm"; nmcli -t -f NAME,TYPE,DEVICE,AUTOCONNECT con show 2>&1 | sort
for f in /etc/NetworkManager/system-connections/*; do [ -e "$f" ] && { echo "-- $f $(stat -c %a "$f")"; grep -v -E '^(uuid|timestamp)=' "$f"; }; done
ip -br addr show 2>&1 | grep -v '^eth0' | sort
echo "== iptables"; iptables-save 2>/dev/null | grep -v -E '^#' | sed 's/\[[0-9]*:[0-9]*\]//'
ip6tables-save 2>/dev/null | grep -v -E '^#' | sed 's/\[[0-9]*:[0-9]*\]//'
echo "== firewall unit"; systemctl is-active firewall 2>&1; systemctl is-enabled firewall 2>&1
for f in /etc/firewall.bash /etc/systemd/system/firewall.service; do [ -e "$f" ] && { echo "-- $f $(stat -c %a "$f")"; cat "$f"; }; done
exit 0
