# The host-side script, part 1: apply one bridge's desired state (<bridge>.env) with ovs-vsctl +
# iproute2 (+ nftables, NetworkManager's "unmanaged", systemd-networkd for DHCP), and restore the
# uplink's saved configuration (<bridge>.prev). POSIX sh: it runs detached under systemd-run and
# at boot, so it must not depend on anything hostwire has on the controller.

vsctl() { ovs-vsctl --timeout=10 "$@"; }
nm_running() { command -v nmcli >/dev/null 2>&1 && [ "$(nmcli -t -f RUNNING general 2>/dev/null)" = running ]; }
load_env() { BRIDGE= UPLINK= MAC= MTU= METHOD= ADDRS= ROUTES= METRIC= DATAPATH= DROP_INGRESS= CHECK= BACKEND= NMCONN=; no_device; no_v6; . "$1"; }
# The DHCPv4 client id (DUID4, IAID4) and stanza (IFUPDOWN_*) of an uplink ifupdown's dhclient held, IPv6's.
no_v6() { METHOD6= TOKENS6= DUID6= IAID6= DEFAULT6= DUID4= IAID4= IFUPDOWN_FILE= IFUPDOWN_LINE=; }
no_device() { KIND= BOND_OPTS= MEMBERS= VLAN_ID= VLAN_PROTO= VLAN_PARENT=; }

# A bond or VLAN uplink that is gone (at boot NetworkManager leaves it unmanaged, so nothing else makes it)
# is made again from the recorded options before it becomes the bridge's port; a bond's members stay
# bonded in the kernel. $1: the device; KIND, BOND_OPTS, MEMBERS, VLAN_* as loaded; $2: its MAC.
make_bond() { # name mac
  if ! ip link show dev "$1" >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    step ip link add "$1" type bond $BOND_OPTS || return 1
    step ip link set dev "$1" address "$2" || return 1
  fi
  for m in $MEMBERS; do
    [ "$(cat "/sys/class/net/$m/master/ifindex" 2>/dev/null)" = "$(cat "/sys/class/net/$1/ifindex")" ] && continue
    step ip link set dev "$m" down && step ip link set dev "$m" master "$1" || return 1
  done
  for m in $MEMBERS; do step ip link set dev "$m" up || return 1; done
  same_mac "$1" "$2"
}
# The recorded MAC wins: told to leave a bond it made alone, NetworkManager let go of its ports, and the bond
# (and the VLAN on it) came back with another, random MAC once they were re-attached (seen on a VM host).
same_mac() { # dev mac
  [ "$(cat "/sys/class/net/$1/address" 2>/dev/null)" = "$2" ] || step ip link set dev "$1" address "$2"
}
ensure_device() { # name mac
  case "$KIND" in
    bond) make_bond "$1" "$2" ;;
    vlan)
      if [ -n "$BOND_OPTS" ]; then make_bond "$VLAN_PARENT" "$2" || return 1; fi
      step ip link set dev "$VLAN_PARENT" up || return 1
      ip link show dev "$1" >/dev/null 2>&1 || step ip link add link "$VLAN_PARENT" name "$1" type vlan protocol "$VLAN_PROTO" id "$VLAN_ID" || return 1
      same_mac "$1" "$2" ;;
    *) return 0 ;;
  esac
}
nft_table() { echo "hostwire_$(echo "$1" | tr -c 'A-Za-z0-9_\n' _)"; }

# NetworkManager must leave every bridge and uplink hostwire owns alone (also after a reboot).
nm_unmanage_all() {
  nm_running || return 0
  devs=""
  for f in "$ETC"/*.env; do
    [ -e "$f" ] || continue
    # The nm backend's devices are NetworkManager's own (its ovs-* profiles).
    ( load_env "$f"; [ "$BACKEND" = nm ] && exit 0; echo "interface-name:$BRIDGE;interface-name:$UPLINK"
      for d in $VLAN_PARENT $MEMBERS; do echo "interface-name:$d"; done ) >>"$RUN/nm.$$"
  done
  if [ -s "$RUN/nm.$$" ]; then
    devs=$(tr '\n' ';' <"$RUN/nm.$$" | sed 's/;$//')
    # rc-manager=unmanaged: NM must not rewrite resolv.conf without the moved uplink's DNS servers.
    # '+=' appends to the unmanaged list of the host's other conf.d files (a plain '=' replaced it).
    printf '# hostwire configure_ovs: devices moved into OVS bridges\n[main]\nrc-manager=unmanaged\n\n[keyfile]\nunmanaged-devices+=%s\n' "$devs" >"$NMCONF.tmp"
    durable_mv "$NMCONF.tmp" "$NMCONF"
  else
    rm -f "$NMCONF"
  fi
  rm -f "$RUN/nm.$$"
  nmcli general reload conf >/dev/null 2>&1 || true
}

# The netdev datapath's bridge port is a tap ovs-vswitchd owns: under load it was seen to come back
# without the address set just before (the uplink-rollback flake). Re-apply until two checks in a row
# find every address.
ensure_addrs() {
  good=0; i=0
  while [ $i -lt 25 ]; do
    miss=0
    for a in $ADDRS; do ip -o addr show dev "$1" | grep -qF " ${a%%/*}/" || { miss=1; bridge_addr "$a" "$1"; }; done
    if [ $miss = 0 ]; then good=$((good+1)); [ $good -ge 2 ] && return 0; else good=0; fi
    i=$((i+1)); sleep 0.2
  done
  return 1
}

# A recorded route's words, `-6 default via ...` for an IPv6 default route: `ip route` takes -6 only before
# its object ("any valid prefix is expected rather than -6"), so it moves in front.
route_replace() { # words... dev DEV
  src6_ready "$@"
  if [ "$1" = -6 ]; then shift; ip -6 route replace "$@"; else ip route replace "$@"; fi
}
# The kernel refuses an IPv6 route whose preferred source is still in DAD ("Invalid source address"), as an
# address just put on the bridge (or back on the uplink) is: wait for it, 10 s at most (then ip says why).
src6_ready() { # route words...
  s6=; while [ $# -gt 1 ]; do [ "$1" = src ] && s6=$2; shift; done
  case "$s6" in *:*) ;; *) return 0 ;; esac
  n6=0; until ip -6 -o addr show -tentative | grep -qF " $s6/"; do n6=$((n6+1)); [ $n6 -lt 50 ] || return 0; sleep 0.2; done
}

has_v4() { ip -o -4 addr show dev "$1" scope global 2>/dev/null | grep -q inet; }

# Every step of a move goes through step: the first one that fails names the transaction's reason
# (its command and the last lines of its output), and the caller aborts.
FAILED=
step() {
  out=$("$@" 2>&1); rc=$?
  [ -z "$out" ] || printf '%s\n' "$out"
  [ $rc = 0 ] && return 0
  [ -n "$FAILED" ] || FAILED="$* (exit $rc): $(printf '%s' "$out" | tail -n 3 | tr '\n' ' ' | tr -d '\r' | cut -c1-400)"
  return $rc
}
fail() { [ -n "$FAILED" ] || FAILED=$1; echo "$1"; return 1; }

# Replaces $2 by $1 so that a power loss right after leaves the old file or the new one, never an empty one: the
# new content reaches the disk before the rename, the rename before we go on (a move is followed by a power cycle
# soon enough on a real node). `sync FILE` is coreutils' fsync of that file; plain sync where it has none.
durable_mv() { # tmp dest
  sync -- "$1" 2>/dev/null || sync
  mv -f "$1" "$2" || return 1
  sync -- "$(dirname -- "$2")" 2>/dev/null || sync
}

# OVS reports a port it could not open, or an MTU it did not take, in the Interface table.
ovs_port_ok() { # interface mtu
  i=0
  while :; do
    err=$(vsctl get interface "$1" error 2>&1); ofp=$(vsctl get interface "$1" ofport 2>&1); mtu=$(vsctl get interface "$1" mtu 2>&1)
    [ "$err" = '[]' ] && [ "$ofp" != -1 ] && [ "$ofp" != '[]' ] && [ "$mtu" = "$2" ] && return 0
    i=$((i+1)); [ $i -lt 20 ] || break; sleep 0.1
  done
  # The cause is often only in ovs-vswitchd's log (a datapath it cannot open): its last complaints.
  log=$(tail -n 100 /var/log/openvswitch/ovs-vswitchd.log 2>/dev/null | grep -E '[|](ERR|WARN|EMER)[|]' | tail -n 2 | cut -d'|' -f3- | tr '\n' ' ')
  [ -z "$log" ] || log="; ovs-vswitchd: $log"
  fail "OVS interface $1: error $err, ofport $ofp, mtu $mtu (wanted mtu $2)$log"
}

apply_bridge() {
  load_env "$1"
  echo "apply $BRIDGE: uplink $UPLINK mac $MAC mtu $MTU $METHOD $ADDRS ($BACKEND backend)"
  if [ "$BACKEND" = nm ]; then
    step sh "$ETC/$BRIDGE.nm" up || return 1
    # NM's SLAAC: the token's address out of DAD and the RA's default route at the metric before the check.
    if [ -n "$METHOD6" ]; then wait_v6 "$BRIDGE" || return 1; fi
    finish_bridge; return $?
  fi
  nm_unmanage_all
  if nm_running; then for d in "$UPLINK" $VLAN_PARENT $MEMBERS; do nmcli device set "$d" managed no 2>/dev/null || true; done; fi
  ensure_device "$UPLINK" "$MAC" || return 1
  # 60 s: the kernel datapath's first bridge loads the openvswitch module and creates ovs-system (over
  # 10 s on an emulated lab VM under load: ovs-vsctl's alarm cut it off).
  step ovs-vsctl --timeout=60 --may-exist add-br "$BRIDGE" -- set bridge "$BRIDGE" datapath_type="$DATAPATH" fail_mode=standalone \
    other_config:hwaddr="\"$MAC\"" external_ids:bridge-id="$BRIDGE" external_ids:hostwire-uplink="$UPLINK" \
    -- set interface "$BRIDGE" mtu_request="$MTU" \
    -- --may-exist add-port "$BRIDGE" "$UPLINK" -- set interface "$UPLINK" mtu_request="$MTU" || return 1
  ovs_port_ok "$UPLINK" "$MTU" || return 1
  networkd_port "$UPLINK"
  if nm_running; then nmcli device set "$BRIDGE" managed no 2>/dev/null || true; fi
  # SLAAC/DHCPv6 on the bridge is networkd's alone: the kernel's own autoconfiguration would add a second
  # (EUI-64) address before networkd takes the link.
  [ -z "$METHOD6" ] || echo 0 >"/proc/sys/net/ipv6/conf/$BRIDGE/accept_ra" || true
  step ip link set dev "$UPLINK" up || return 1
  step ip link set dev "$BRIDGE" address "$MAC" mtu "$MTU" up || return 1
  # Static addresses before networkd takes the bridge (SLAAC/DHCPv6 beside them): it then finds them as its
  # Address= lines ask, instead of meeting them half-way through its own requests (bridge_addr, networkd part).
  if [ "$METHOD" != dhcp ]; then for a in $ADDRS; do step bridge_addr "$a" "$BRIDGE" || return 1; done; fi
  if [ "$METHOD" = dhcp ] || [ -n "$METHOD6" ]; then step networkd_conf || return 1; fi
  if [ "$METHOD" = dhcp ]; then
    # networkd sets the lease's address a moment before its default route: wait for both (seen in CI).
    i=0; NWD_RETRY=0; until has_v4 "$BRIDGE" && ip -4 route show default dev "$BRIDGE" | grep -q .; do
      i=$((i+1)); networkd_unstick "$BRIDGE"
      if [ $i -gt 60 ]; then
        if has_v4 "$BRIDGE"; then fail "DHCP on $BRIDGE gave no default route in 30 s"; else fail "DHCP on $BRIDGE got no lease in 30 s"; fi
        return 1
      fi
      sleep 0.5
    done
    # A DHCP uplink's static IPv6 addresses once the lease is there (networkd has them too): put on before it,
    # the lease was once lost in networkd's reconfiguring and not back in 30 s (CI, nspawn).
    for a in $ADDRS; do step bridge_addr "$a" "$BRIDGE" || return 1; done
    # ifupdown's dhclient on the port stopped once the bridge has the lease (and kept from it at boot).
    ifupdown_port_off || return 1
  fi
  if [ -n "$ADDRS" ]; then
    ensure_addrs "$BRIDGE" || { fail "the addresses $ADDRS do not stay on $BRIDGE"; return 1; }
  fi
  if [ -n "$METHOD6" ]; then wait_v6 "$BRIDGE" || return 1; fi
  step ip addr flush dev "$UPLINK" scope global || return 1
  if [ -n "$ROUTES" ]; then
    # ';'-separated routes, each split into words again inside the loop. A DHCP uplink's static routes too (its
    # lease's own are not among them); its IPv4 default route is the lease's (networkd's, at the metric), a
    # static IPv6 one beside the lease is set as any (it was left out: the move lost it).
    ifs=$IFS; IFS=';'
    for r in $ROUTES; do
      IFS=$ifs
      # The step names the ip command itself (an IPv6 route is '-6 default via ...').
      # shellcheck disable=SC2086
      src6_ready $r
      # shellcheck disable=SC2086
      case "$METHOD/$r" in
        */|dhcp/default*) ;;
        */-6\ *) step ip -6 route replace ${r#-6 } dev "$BRIDGE" || { IFS=$ifs; return 1; } ;;
        *) step ip route replace $r dev "$BRIDGE" || { IFS=$ifs; return 1; } ;;
      esac
    done
    IFS=$ifs
  fi
  drop_uplink_routes6 "$UPLINK"
  finish_bridge
}

# IPv6 routes outlive their link's addresses (IPv4's go with them): the uplink's own ones that were not replaced
# on the bridge (its default route at its old metric) stayed beside br-ex's. The rollback's snapshot has them.
# A leftover is no reason to undo the move: one that will not go is said in the log.
drop_uplink_routes6() { # uplink
  rs=$(ip -6 route show dev "$1" table main | grep -v ' proto kernel \| proto ra \| proto dhcp \|^fe80:\|^multicast ' | sed -E 's/ (expires|pref) [^ ]+//g; s/ linkdown//; s/ +$//')
  [ -n "$rs" ] || return 0
  ifs=$IFS; IFS='
'
  for r in $rs; do
    IFS=$ifs
    # shellcheck disable=SC2086
    ip -6 route del $r dev "$1" || echo "the route $r stays on $1"
  done
  IFS=$ifs
}

# Both backends: the kernel's own ingress on a netdev uplink dropped, offloads off, the old DNS kept.
finish_bridge() {
  if [ "$DROP_INGRESS" = 1 ]; then
    # netdev datapath: OVS reads the uplink through AF_PACKET copies; the kernel must not answer too.
    t=$(nft_table "$UPLINK")
    printf 'table netdev %s\ndelete table netdev %s\ntable netdev %s {\n  chain ingress { type filter hook ingress device "%s" priority -500; policy drop; }\n}\n' \
      "$t" "$t" "$t" "$UPLINK" >"$RUN/nft.$$"
    step nft -f "$RUN/nft.$$" || { rm -f "$RUN/nft.$$"; return 1; }
    rm -f "$RUN/nft.$$"
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
  NM_UNMANAGED=''
  IFACE= MAC= MTU= METHOD= ADDRS= ROUTES= NMCONN=; no_device; no_v6; . "$p"
  echo "restore $IFACE from $p"
  t=$(nft_table "$IFACE")
  nft delete table netdev "$t" 2>/dev/null || true
  nmb=0
  if [ -e "$ETC/$b.nm" ]; then
    nmb=1
    # Devices NM did not manage before the move (a kernel-made bond's ports) are let go first: once our
    # profiles are gone NM's auto-made DHCP profiles would take them.
    if nm_running; then for d in $NM_UNMANAGED; do nmcli device set "$d" managed no >/dev/null 2>&1 || true; done; fi
    sh "$ETC/$b.nm" down; rm -f "$ETC/$b.nm"
    # An uplink NM held without a profile of ours (its address set from outside: "connected (externally)")
    # must not be taken by NM's auto-made DHCP profile once the OVS profiles are gone (seen on a lab host:
    # "Wired connection 1" flushed the restored address 45 s after the rollback). With the device's
    # autoconnect off (runtime only) NM takes the restored addresses as external again.
    if [ -z "$NMCONN" ] && nm_running; then
      nmcli device set "$IFACE" autoconnect no >/dev/null 2>&1 || true
      nmcli device disconnect "$IFACE" >/dev/null 2>&1 || true
    fi
  fi
  vsctl --if-exists del-br "$b"
  ensure_device "$IFACE" "$MAC" || echo "cannot make $IFACE again: $FAILED"
  networkd_forget "$b" "$IFACE"
  ip link set dev "$IFACE" address "$MAC" mtu "$MTU" up
  # A lease or SLAAC/DHCPv6 that NetworkManager held comes back by re-activating its profile.
  if [ "$METHOD" = dhcp ] || { [ -n "$METHOD6" ] && [ -n "$NMCONN" ]; }; then
    rm -f "$ETC/$b.env"; nm_unmanage_all
    if nm_running && [ -n "$NMCONN" ] && [ "$KIND" = bond ]; then
      # An NM-made bond first, under its own profile, then its ports under theirs (nm_ports_back).
      nmcli device set "$IFACE" managed yes || true
      nm_reactivate "$IFACE" "$NMCONN"
      for d in $MEMBERS; do nmcli device set "$d" managed yes || true; done
      nm_ports_back "$IFACE" "$NMCONN"
    elif nm_running && [ -n "$NMCONN" ]; then
      # An NM-made VLAN's parent bond and its ports were NM's too (the apply told NM to leave them): without them
      # back a rollback left them unmanaged (seen on a VM host: the VM-tier DHCP scenario). A kernel-made bond's
      # ports NM did not manage stay unmanaged: handed to NM bare, its auto-made DHCP profile takes a port.
      for d in $VLAN_PARENT $MEMBERS; do nm_was_unmanaged "$d" || nmcli device set "$d" managed yes || true; done
      nmcli device set "$IFACE" managed yes || true
      nm_reactivate "$IFACE" "$NMCONN"
      [ -n "$MEMBERS" ] && nm_ports_back "$VLAN_PARENT" ''
    fi
    # No profile of NM's: NM ran no DHCP on it (made managed, it would start its own), the host's client takes it up.
    [ "$METHOD" != dhcp ] || [ -n "$NMCONN" ] || [ -z "$IFUPDOWN_FILE" ] || ifupdown_back "$IFACE"
    [ "$METHOD" != dhcp ] || [ -n "$NMCONN" ] || [ -n "$IFUPDOWN_FILE" ] || dhcp_again "$IFACE"
    [ "$METHOD" != dhcp ] || replay_static "$IFACE"
  else
    # The kernel's own SLAAC (no NM profile): the link cycled sends a router solicitation at once.
    if [ -n "$METHOD6" ]; then ip link set dev "$IFACE" down; ip link set dev "$IFACE" up; fi
    for a in $ADDRS; do ip addr replace "$a" dev "$IFACE"; done
    echo "$ROUTES" | tr ';' '\n' | while read -r r; do
      # shellcheck disable=SC2086
      [ -n "$r" ] && route_replace $r dev "$IFACE"
    done
    rm -f "$ETC/$b.env"; nm_unmanage_all
    # Activated again even where NM runs it already: the addresses put back above gave their prefix routes no
    # metric, NM's activation puts its own (seen on an nspawn --nm-ovs host: the rollback left a second
    # 10.x.0/24 route without a metric beside NM's metric 100 one).
    [ $nmb = 1 ] && [ -n "$NMCONN" ] && { nmcli connection up uuid "$NMCONN" || true; }
  fi
  # NM's activation ends before its IPv6 is done, the kernel's SLAAC needs the router's answer: the rollback's
  # sweep must find the addresses back (20 s at most).
  if [ -n "$METHOD6" ]; then i=0; until has_v6 "$IFACE" || [ $i -ge 40 ]; do i=$((i+1)); sleep 0.5; done; fi
  [ -e "$LIB/$b.resolv" ] && ! cmp -s "$LIB/$b.resolv" /etc/resolv.conf && cat "$LIB/$b.resolv" >/etc/resolv.conf
  return 0
}
