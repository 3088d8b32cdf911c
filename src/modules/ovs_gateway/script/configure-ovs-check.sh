# The host-side script, part 3: what a move must prove before it may stay, checked after the apply
# and again when hostwire's confirmation arrives: the default route(s) on the bridge as wanted, the
# SSH client reached through the bridge (when it was reached through the uplink before), and each
# check target answering do-not-fragment pings of the full MTU (a jumbo MTU on a 1500 segment
# passes small pings only). A failure names itself in FAILED.

dev_of() { ip route get "$1" 2>/dev/null | sed -n 's/.* dev \([^ ]*\).*/\1/p' | head -n 1; }

routes_ok() { # the bridge's env is loaded
  if [ "$METHOD6" = auto ] && [ "$DEFAULT6" != none ] && ! ip -6 route show default dev "$BRIDGE" | grep -q " metric $METRIC\( \|$\)"; then
    fail "no IPv6 default route (router advertisement) on $BRIDGE at metric $METRIC"; return 1
  fi
  if [ "$METHOD" = dhcp ]; then
    ip -4 route show default dev "$BRIDGE" | grep -q . || { fail "no default route on $BRIDGE (DHCP)"; return 1; }
  fi
  # A lease's IPv4 default route is the lease's (above); a static IPv6 one beside it is checked as any.
  ifs=$IFS; IFS=';'
  for r in $ROUTES; do
    IFS=$ifs
    case "$METHOD/$r" in dhcp/default*) continue ;; */default*) fam=-4 ;; */-6\ default*) fam=-6 ;; *) continue ;; esac
    via=$(echo "$r" | sed -n 's/.* via \([^ ]*\).*/\1/p')
    have=$(ip $fam route show default dev "$BRIDGE" 2>/dev/null | grep " metric $METRIC\( \|$\)")
    # shellcheck disable=SC2086
    if [ -z "$have" ] || { [ -n "$via" ] && ! echo "$have" | grep -qF "via $via "; } || ! attrs_on "$have" $r; then
      IFS=$ifs; fail "default route \"$r\" missing on $BRIDGE (default routes now: $(ip $fam route show default | tr '\n' ';'))"; return 1
    fi
  done
  IFS=$ifs
}

# The recorded route's src, mtu and advmss are on the route ip printed (`... src A metric M mtu N advmss N`).
attrs_on() { # lines words...
  l=" $(echo "$1" | tr '\n' ' ') "; shift
  while [ $# -gt 1 ]; do
    case "$1" in src|mtu|advmss) case "$l" in *" $1 $2 "*) ;; *) return 1 ;; esac ;; esac
    shift
  done
}

ssh_path_ok() { # the SSH client must still come through the bridge that took its uplink
  [ -n "$SSH_ADDR" ] || return 0
  [ "$SSH_DEV" = "$UPLINK" ] || [ "$SSH_DEV" = "$BRIDGE" ] || return 0
  dev=$(dev_of "$SSH_ADDR")
  [ "$dev" = "$BRIDGE" ] || { fail "the SSH path: ip route get $SSH_ADDR goes through '$dev', not $BRIDGE"; return 1; }
}

ping_ok() { ping -n -c1 -W1 -M do -s "$3" -I "$1" "$2" >/dev/null 2>&1; }

check_target() { # bridge target mtu: do-not-fragment pings of the full MTU, a few tries over ~10 s
  big=$(( $3 - 28 )); case "$2" in *:*) big=$(( $3 - 48 )) ;; esac
  i=0; while [ $i -lt 8 ]; do ping_ok "$1" "$2" "$big" && return 0; i=$((i+1)); sleep 0.2; done
  if ping_ok "$1" "$2" 56; then fail "path MTU: $2 answers small pings through $1 but not $3-byte packets (ping -M do -s $big)"
  else fail "connectivity check failed: $2 does not answer through $1"; fi
}

check_bridge() { # env file
  load_env "$1"
  routes_ok && ssh_path_ok || return 1
  for c in $CHECK; do check_target "$BRIDGE" "$c" "$MTU" || return 1; done
}

check_all() { # every bridge the transaction applied
  for a in $ACTIONS; do
    b=$(echo "$a" | cut -d: -f2-); [ -e "$ETC/$b.env" ] || continue
    check_bridge "$ETC/$b.env" || return 1
  done
}
