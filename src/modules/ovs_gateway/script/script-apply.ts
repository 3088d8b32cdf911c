// The host-side script, part 1: apply one bridge's desired state (<bridge>.env) with ovs-vsctl +
// iproute2 (+ nftables, NetworkManager's "unmanaged", systemd-networkd for DHCP), and restore the
// uplink's saved configuration (<bridge>.prev). POSIX sh: it runs detached under systemd-run and
// at boot, so it must not depend on anything hostwire has on the controller.
export const SCRIPT_APPLY = `
vsctl() { ovs-vsctl --timeout=10 "$@"; }
nm_running() { command -v nmcli >/dev/null 2>&1 && [ "$(nmcli -t -f RUNNING general 2>/dev/null)" = running ]; }
load_env() { BRIDGE= UPLINK= MAC= MTU= METHOD= ADDRS= ROUTES= METRIC= DATAPATH= DROP_INGRESS= CHECK= BACKEND= NMCONN=; . "$1"; }
nft_table() { echo "hostwire_$(echo "$1" | tr -c 'A-Za-z0-9_\\n' _)"; }

# NetworkManager must leave every bridge and uplink hostwire owns alone (also after a reboot).
nm_unmanage_all() {
  nm_running || return 0
  devs=""
  for f in "$ETC"/*.env; do
    [ -e "$f" ] || continue
    ( load_env "$f"; echo "interface-name:$BRIDGE;interface-name:$UPLINK" ) >>"$RUN/nm.$$"
  done
  if [ -s "$RUN/nm.$$" ]; then
    devs=$(tr '\\n' ';' <"$RUN/nm.$$" | sed 's/;$//')
    # rc-manager=unmanaged: NM must not rewrite resolv.conf without the moved uplink's DNS servers.
    printf '# hostwire configure_ovs: devices moved into OVS bridges\\n[main]\\nrc-manager=unmanaged\\n\\n[keyfile]\\nunmanaged-devices=%s\\n' "$devs" >"$NMCONF.tmp"
    mv "$NMCONF.tmp" "$NMCONF"
  else
    rm -f "$NMCONF"
  fi
  rm -f "$RUN/nm.$$"
  nmcli general reload conf >/dev/null 2>&1 || true
}

networkd_dhcp() {
  mkdir -p /run/systemd/network /run/systemd/networkd.conf.d
  printf '[Network]\\nManageForeignRoutes=no\\nManageForeignRoutingPolicyRules=no\\n' >/run/systemd/networkd.conf.d/50-hostwire.conf
  printf '[Match]\\nName=%s\\n\\n[Link]\\nMACAddress=%s\\n\\n[Network]\\nDHCP=ipv4\\nIPv6AcceptRA=no\\nLinkLocalAddressing=no\\nKeepConfiguration=dhcp-on-stop\\n\\n[DHCPv4]\\nClientIdentifier=mac\\nRouteMetric=%s\\nUseDNS=yes\\n' \\
    "$BRIDGE" "$MAC" "$METRIC" >"/run/systemd/network/10-hostwire-$BRIDGE.network"
  if systemctl is-active -q systemd-networkd; then networkctl reload; networkctl reconfigure "$BRIDGE" 2>/dev/null || true
  else systemctl start systemd-networkd; fi
}

# The netdev datapath's bridge port is a tap ovs-vswitchd owns: under load it was seen to come back
# without the address set just before (the uplink-rollback flake). Re-apply until two checks in a row
# find every address.
ensure_addrs() {
  good=0; i=0
  while [ $i -lt 25 ]; do
    miss=0
    for a in $ADDRS; do ip -o addr show dev "$1" | grep -qF " \${a%%/*}/" || { miss=1; ip addr replace "$a" dev "$1"; }; done
    if [ $miss = 0 ]; then good=$((good+1)); [ $good -ge 2 ] && return 0; else good=0; fi
    i=$((i+1)); sleep 0.2
  done
  echo "the addresses $ADDRS do not stay on $1"; return 1
}

has_v4() { ip -o -4 addr show dev "$1" scope global 2>/dev/null | grep -q inet; }

apply_bridge() {
  load_env "$1"
  echo "apply $BRIDGE: uplink $UPLINK mac $MAC mtu $MTU $METHOD $ADDRS ($BACKEND backend)"
  if [ "$BACKEND" = nm ]; then sh "$ETC/$BRIDGE.nm" up; return $?; fi
  nm_unmanage_all
  if nm_running; then nmcli device set "$UPLINK" managed no 2>/dev/null || true; fi
  vsctl --may-exist add-br "$BRIDGE" -- set bridge "$BRIDGE" datapath_type="$DATAPATH" fail_mode=standalone \\
    other_config:hwaddr="\\"$MAC\\"" external_ids:bridge-id="$BRIDGE" external_ids:hostwire-uplink="$UPLINK" \\
    -- set interface "$BRIDGE" mtu_request="$MTU" \\
    -- --may-exist add-port "$BRIDGE" "$UPLINK" -- set interface "$UPLINK" mtu_request="$MTU"
  if nm_running; then nmcli device set "$BRIDGE" managed no 2>/dev/null || true; fi
  ip link set dev "$UPLINK" up
  ip link set dev "$BRIDGE" address "$MAC" mtu "$MTU" up
  if [ "$METHOD" = dhcp ]; then
    networkd_dhcp
    i=0; until has_v4 "$BRIDGE"; do i=$((i+1)); [ $i -le 60 ] || { echo "DHCP on $BRIDGE got no lease in 30 s"; return 1; }; sleep 0.5; done
  else
    for a in $ADDRS; do ip addr replace "$a" dev "$BRIDGE"; done
    ensure_addrs "$BRIDGE" || return 1
  fi
  ip addr flush dev "$UPLINK" scope global
  if [ "$METHOD" != dhcp ] && [ -n "$ROUTES" ]; then
    echo "$ROUTES" | tr ';' '\\n' | while read -r r; do
      [ -n "$r" ] || continue
      # shellcheck disable=SC2086
      ip route replace $r dev "$BRIDGE" || { echo "cannot add route: $r dev $BRIDGE"; exit 1; }
    done || return 1
  fi
  if [ "$DROP_INGRESS" = 1 ]; then
    # netdev datapath: OVS reads the uplink through AF_PACKET copies; the kernel must not answer too.
    t=$(nft_table "$UPLINK")
    nft -f - <<EOF
table netdev $t
delete table netdev $t
table netdev $t {
  chain ingress { type filter hook ingress device "$UPLINK" priority -500; policy drop; }
}
EOF
  fi
  command -v ethtool >/dev/null 2>&1 && [ "$DATAPATH" = netdev ] && ethtool -K "$BRIDGE" tx off >/dev/null 2>&1
  # The DNS servers stay what they were before the move (NM may have dropped the uplink's).
  [ -e "$LIB/$BRIDGE.resolv" ] && ! cmp -s "$LIB/$BRIDGE.resolv" /etc/resolv.conf && cat "$LIB/$BRIDGE.resolv" >/etc/resolv.conf
  return 0
}

restore_prev() {
  # $1 = bridge name; puts the uplink back as it was before hostwire moved it.
  b=$1; p="$LIB/$b.prev"
  [ -e "$p" ] || { echo "no saved configuration for $b"; return 1; }
  IFACE= MAC= MTU= METHOD= ADDRS= ROUTES= NMCONN=; . "$p"
  echo "restore $IFACE from $p"
  t=$(nft_table "$IFACE")
  nft delete table netdev "$t" 2>/dev/null || true
  nmb=0
  if [ -e "$ETC/$b.nm" ]; then nmb=1; sh "$ETC/$b.nm" down; rm -f "$ETC/$b.nm"; fi
  vsctl --if-exists del-br "$b"
  if [ -e "/run/systemd/network/10-hostwire-$b.network" ]; then
    rm -f "/run/systemd/network/10-hostwire-$b.network"
    systemctl is-active -q systemd-networkd && networkctl reload
  fi
  ip link set dev "$IFACE" address "$MAC" mtu "$MTU" up
  if [ "$METHOD" = dhcp ]; then
    rm -f "$ETC/$b.env"; nm_unmanage_all
    if nm_running; then
      nmcli device set "$IFACE" managed yes || true
      [ -n "$NMCONN" ] && nmcli connection up uuid "$NMCONN" ifname "$IFACE" || true
    fi
  else
    for a in $ADDRS; do ip addr replace "$a" dev "$IFACE"; done
    echo "$ROUTES" | tr ';' '\\n' | while read -r r; do
      # shellcheck disable=SC2086
      [ -n "$r" ] && ip route replace $r dev "$IFACE"
    done
    rm -f "$ETC/$b.env"; nm_unmanage_all
    [ $nmb = 1 ] && [ -n "$NMCONN" ] && { nmcli connection up uuid "$NMCONN" || true; }
  fi
  [ -e "$LIB/$b.resolv" ] && ! cmp -s "$LIB/$b.resolv" /etc/resolv.conf && cat "$LIB/$b.resolv" >/etc/resolv.conf
  return 0
}
`;
