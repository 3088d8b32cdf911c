# The host-side script, part 1b: systemd-networkd on the bridge, for what a DHCPv4 server or an IPv6
# router (SLAAC, DHCPv6) gave the uplink. The bridge has the uplink's MAC, so the DHCPv4 lease (client id
# = MAC) comes back; SLAAC addresses come back through static tokens (the uplink's interface identifiers),
# a DHCPv6 lease through the DUID and IAID the uplink's client used. Default routes at the bridge's metric.
# networkd must not touch routes it did not make (the static ones hostwire adds with ip).

# networkd's DUIDType=/DUIDRawData= of a DUID (hex bytes): its first two bytes are its type (RFC 8415: 1
# link-layer-time, 2 vendor, 3 link-layer, 4 uuid).
duid_lines() { # duid
  ty=$(printf '%s' "$1" | cut -d: -f1-2 | tr -d :)
  case "$ty" in 0001) ty=link-layer-time ;; 0002) ty=vendor ;; 0003) ty=link-layer ;; 0004) ty=uuid ;; *) ty=$((0x$ty)) ;; esac
  printf 'DUIDType=%s\nDUIDRawData=%s\n' "$ty" "$(printf '%s' "$1" | cut -d: -f3-)"
}

networkd_conf() { # the bridge's env is loaded
  mkdir -p /run/systemd/network /run/systemd/networkd.conf.d
  printf '[Network]\nManageForeignRoutes=no\nManageForeignRoutingPolicyRules=no\n' >/run/systemd/networkd.conf.d/50-hostwire.conf
  case "$METHOD/$METHOD6" in dhcp/dhcp) dhcp=yes ;; dhcp/*) dhcp=ipv4 ;; */dhcp) dhcp=ipv6 ;; *) dhcp=no ;; esac
  f="/run/systemd/network/10-hostwire-$BRIDGE.network"
  {
    printf '[Match]\nName=%s\n\n[Link]\nMACAddress=%s\n\n[Network]\nDHCP=%s\n' "$BRIDGE" "$MAC" "$dhcp"
    if [ "$METHOD6" = auto ]; then echo 'IPv6AcceptRA=yes'; else echo 'IPv6AcceptRA=no'; fi
    # IPv6 (also a DHCP uplink's static IPv6 address): the bridge keeps its link-local, as the uplink had.
    case "$METHOD6/$ADDRS" in /*:*|?*/*) echo 'LinkLocalAddressing=ipv6' ;; *) echo 'LinkLocalAddressing=no' ;; esac
    echo 'KeepConfiguration=dhcp-on-stop'
    # The static addresses too (a lease's static IPv6 ones beside it): networkd drops addresses it did not make.
    for a in $ADDRS; do echo "Address=$a"; done
    if [ "$METHOD" = dhcp ] && [ -n "$DUID4" ]; then
      # ifupdown's dhclient's client id (RFC 4361: IAID + DUID), so the server gives the bridge the same lease.
      printf '\n[DHCPv4]\nClientIdentifier=duid\nIAID=%s\n' "$IAID4"; duid_lines "$DUID4"
      printf 'RouteMetric=%s\nUseDNS=yes\n' "$METRIC"
    elif [ "$METHOD" = dhcp ]; then printf '\n[DHCPv4]\nClientIdentifier=mac\nRouteMetric=%s\nUseDNS=yes\n' "$METRIC"; fi
    if [ "$METHOD6" = auto ]; then
      printf '\n[IPv6AcceptRA]\nRouteMetric=%s\nUseDNS=yes\n' "$METRIC"
      # No SLAAC address on the uplink: none on the bridge either (the RA's prefix may still be autonomous).
      [ -n "$TOKENS6" ] || echo 'UseAutonomousPrefix=no'
      for t in $TOKENS6; do echo "Token=static:$t"; done
    fi
    if [ -n "$METHOD6" ]; then
      printf '\n[DHCPv6]\nUseDNS=yes\n'
      [ "$METHOD6" = dhcp ] && echo 'WithoutRA=solicit'
      [ -z "$DUID6" ] || duid_lines "$DUID6"
      [ -z "$IAID6" ] || echo "IAID=$IAID6"
    fi
  } >"$f.tmp"
  # A new or changed file: `networkctl reload` alone configures the bridge with it. A `reconfigure` right after it
  # (networkd already running: a networkd-held uplink) dropped the lease just taken and, racing, the address.
  if cmp -s "$f.tmp" "$f"; then same=1; else same=''; fi
  mv "$f.tmp" "$f"
  if ! systemctl is-active -q systemd-networkd; then systemctl start systemd-networkd
  elif [ -n "$same" ]; then networkctl reload; networkctl reconfigure -- "$BRIDGE" 2>/dev/null || true
  else networkctl reload; fi
}

# The bridge's static addresses; IPv4 with its broadcast (brd +, none for a /31 or /32), as NetworkManager gave
# the uplink and as networkd's Address= computes it. The kernel keeps an address's broadcast on replace, and
# networkd 252 never took one without it for its own: it sent it again and again (on a VM: 12,300 RTM_NEWADDR
# in 2 min, networkd at 100% CPU, then "Failed to configure address: Numerical result out of range" - sd-netlink's
# cap of 65535 unanswered requests; the boot oneshot and the apply hung whenever the script's address came first).
# One there without its broadcast (a move by an older hostwire) is taken off first.
bridge_addr() { # address dev
  case "$1" in
    *:*) ip addr replace "$1" dev "$2" ;;
    *)
      if [ "${1##*/}" -le 30 ] 2>/dev/null && ip -4 -o addr show dev "$2" | grep -F " inet $1 " | grep -qv ' brd '; then
        ip addr del "$1" dev "$2"
      fi
      ip addr replace "$1" brd + dev "$2" ;;
  esac
}

# SLAAC/DHCPv6 on the bridge: every token's address (and any global one) out of DAD, and with router
# advertisements a default route at the bridge's metric. 60 s.
has_v6() { # bridge
  have=$(ip -6 -o addr show dev "$1" scope global -tentative 2>/dev/null)
  [ -n "$have" ] || return 1
  for t in $TOKENS6; do
    t=${t#::}; while case $t in 0:*) true ;; *) false ;; esac; do t=${t#0:}; done # zero groups print as '::'
    echo "$have" | grep -q ":$t/" || return 1
  done
}
# networkd gives a link up for good when one of its requests fails: seen in the lab when the bridge was made
# again while networkd still ran ("br-ex: Failed to configure address: Numerical result out of range",
# "br-ex: Failed", no RA handled in 30 s - the address loop bridge_addr ends, above). Told to reconfigure it,
# it starts over (3 times at most per apply).
NWD_RETRY=0
networkd_unstick() { # bridge
  # networkctl waits on the daemon (25 s a call): one that hangs must not stretch the wait (timeout 5).
  timeout 5 networkctl list --no-legend --no-pager -- "$1" 2>/dev/null | grep -qw failed || return 0
  [ $NWD_RETRY -lt 3 ] || return 0
  NWD_RETRY=$((NWD_RETRY+1))
  echo "systemd-networkd failed $1 ($(journalctl -u systemd-networkd -n 3 --no-pager -o cat 2>/dev/null | grep -F "$1:" | tail -n 1)): reconfiguring it"
  timeout 5 networkctl reconfigure -- "$1" || true
}
wait_v6() { # bridge
  # 60 s by the clock, not 60 rounds of 0.5 s: with networkd hung (seen on a VM: 100% CPU, killed by its
  # watchdog) each round waited on networkctl, the rounds took 8.5 min and the rollback came that late.
  v6_end=$(( $(date +%s) + 60 )); NWD_RETRY=0
  until has_v6 "$1" && { { [ "$METHOD6" != auto ] || [ "$DEFAULT6" = none ]; } || ip -6 route show default dev "$1" | grep -q " metric $METRIC\( \|$\)"; }; do
    if [ "$(date +%s)" -ge "$v6_end" ]; then
      if has_v6 "$1"; then fail "router advertisements on $1 gave no IPv6 default route in 60 s"
      else fail "SLAAC/DHCPv6 on $1 gave not the addresses ${TOKENS6:-(any)} in 60 s (have: $(ip -6 -o addr show dev "$1" scope global | awk '{print $4}' | tr '\n' ' '))"; fi
      return 1
    fi
    networkd_unstick "$1"
    sleep 0.5
  done
}

# The reverse move of a DHCP uplink no NetworkManager profile held (restore_prev): its lease's client is the
# host's own, and nothing told it the device is back - networkd's client still thought itself bound on a device
# with no address and would only have rebound at T2 (minutes). A device networkd manages (its own .network, back
# in charge now ours is gone) is reconfigured: a fresh DHCP exchange at once. The lease is waited for (30 s).
dhcp_again() { # dev
  systemctl is-active -q systemd-networkd || return 0
  setup=$(timeout 5 networkctl list --no-legend --no-pager -- "$1" 2>/dev/null | awk '{print $NF}')
  case "$setup" in ''|unmanaged) return 0 ;; esac
  echo "networkd manages $1 ($setup): reconfiguring it for its lease"
  timeout 5 networkctl reconfigure -- "$1" || { echo "networkctl reconfigure $1 failed"; return 0; }
  i=0; until has_v4 "$1" || [ $i -ge 60 ]; do i=$((i+1)); sleep 0.5; done
  has_v4 "$1" || echo "no lease on $1 in 30 s"
}

# An uplink networkd configures from the host's own .network would stay networkd's as the bridge's port: its
# DHCP client bound on a port that hears nothing (OVS takes what it receives), renewing and then soliciting for
# a lease the bridge holds; a static .network's addresses put back on the port by the next `networkctl reload`.
# hostwire's own file for the port, sorted first (00-), gives it no address and no client; restore removes it.
networkd_port() { # port
  f="/run/systemd/network/00-hostwire-port-$1.network" setup=hostwire
  systemctl is-active -q systemd-networkd || return 0
  if [ ! -e "$f" ]; then
    setup=$(timeout 5 networkctl list --no-legend --no-pager -- "$1" 2>/dev/null | awk '{print $NF}')
    case "$setup" in ''|unmanaged) return 0 ;; esac
  fi
  mkdir -p /run/systemd/network
  printf '[Match]\nName=%s\n\n[Network]\nDHCP=no\nIPv6AcceptRA=no\nLinkLocalAddressing=no\n' "$1" >"$f.tmp"
  if cmp -s "$f.tmp" "$f"; then rm -f "$f.tmp"; return 0; fi
  mv "$f.tmp" "$f"
  echo "networkd managed $1 ($setup): it is left no address and no DHCP client of its own as the port ($f)"
  timeout 10 networkctl reload || true
  used=$(timeout 5 networkctl status --no-pager -n 0 -- "$1" 2>/dev/null | sed -n 's/^ *Network File: //p')
  [ "$used" = "$f" ] || echo "warning: networkd configures $1 from ${used:-nothing}, not $f (a file sorted before it?)"
}

# The reverse move: hostwire's files for the bridge and its port go, networkd has the host's own back.
networkd_forget() { # bridge port
  gone=''
  for f in "/run/systemd/network/10-hostwire-$1.network" "/run/systemd/network/00-hostwire-port-$2.network"; do
    [ -e "$f" ] && rm -f "$f" && gone=1
  done
  [ -z "$gone" ] || ! systemctl is-active -q systemd-networkd || timeout 10 networkctl reload || true
}
