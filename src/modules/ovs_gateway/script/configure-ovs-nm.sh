# The host-side script, part 1c: the rollback's hand-back to NetworkManager of an uplink it held with a profile
# (restore_prev, part 1): the uplink's own profile re-activated unless NM already runs it, a bond's ports under
# their port profiles. POSIX sh.

# NM already runs profile $2 on $1, activated, with the uplink's addresses (the lease, SLAAC/DHCPv6, or ADDRS):
# once our profiles were gone NM re-activated an NM-made bond by itself (seen on a VM host: the lease back on
# bond0 47 s into the rollback), and activating it again renewed the lease - bond0 without its address for 25 s.
nm_holds() { # dev profile-uuid; METHOD, METHOD6, ADDRS as loaded
  [ "$(nmcli -g GENERAL.CON-UUID device show "$1" 2>/dev/null)" = "$2" ] || return 1
  case "$(nmcli -g GENERAL.STATE device show "$1" 2>/dev/null)" in 100*) ;; *) return 1 ;; esac
  if [ "$METHOD" = dhcp ]; then has_v4 "$1" || return 1; fi
  if [ -n "$METHOD6" ]; then has_v6 "$1" || return 1; fi
  for a in $ADDRS; do ip -o addr show dev "$1" | grep -qF " ${a%%/*}/" || return 1; done
}
# The uplink's own dynamic profile (a lease, SLAAC/DHCPv6) back (nmcli waits for the activation), unless NM
# holds it so already.
nm_reactivate() { # dev profile-uuid
  if nm_holds "$1" "$2"; then echo "NetworkManager holds $1 under its profile already"; return 0; fi
  nmcli connection up uuid "$2" ifname "$1" || true
}

# Whether profile $1 is a port profile of the bond on port $2: slave-type bond, its master the bond by name ($3)
# or profile uuid ($4). One nmcli call (`-g`: one value a line).
nm_is_port_profile() { # uuid port bond bond-profile-uuid
  # NM 1.46 names them port-type and controller: the old names first, the new ones where those are unknown.
  v=$(nmcli -g connection.interface-name,connection.slave-type,connection.master connection show uuid "$1" 2>/dev/null) ||
    v=$(nmcli -g connection.interface-name,connection.port-type,connection.controller connection show uuid "$1" 2>/dev/null) || return 1
  [ "$(echo "$v" | sed -n 1p)" = "$2" ] && [ "$(echo "$v" | sed -n 2p)" = bond ] || return 1
  mst=$(echo "$v" | sed -n 3p)
  [ "$mst" = "$3" ] || { [ -n "$4" ] && [ "$mst" = "$4" ]; }
}
# A bond's port NetworkManager gets back goes under its own port profile (slave-type bond, its master the bond
# by name or profile uuid): handed to NM bare, a port was taken by NM's auto-made "Wired connection N" and ran
# DHCP on its own MAC out of the bond (seen on a VM host: the rollback stranded it). First the profile NM runs on
# the port already (often that one: NM brought the bond back itself), else every profile is looked at: on a
# loaded VM host that scan (then three nmcli calls a profile) kept the rollback going 303 s.
nm_port_profile() { # port bond bond-profile-uuid
  u=$(nmcli -g GENERAL.CON-UUID device show "$1" 2>/dev/null)
  if [ -n "$u" ] && nm_is_port_profile "$u" "$1" "$2" "$3"; then echo "$u"; return 0; fi
  for u in $(nmcli -g UUID connection show 2>/dev/null); do
    if nm_is_port_profile "$u" "$1" "$2" "$3"; then echo "$u"; return 0; fi
  done
  return 1
}
# Whether NM left $1 unmanaged before the move (a kernel-made bond's port: NM_UNMANAGED, as loaded from the prev).
nm_was_unmanaged() { case " $NM_UNMANAGED " in *" $1 "*) return 0 ;; esac; return 1; }
# nmcli waits for each activation; a port whose profile does not come up is tried 3 times. A port NM left
# unmanaged before (a kernel-made bond's) has no profile to look for: it stays the kernel's.
nm_ports_back() { # bond bond-profile-uuid; MEMBERS, NM_UNMANAGED as loaded
  for m in $MEMBERS; do
    nm_was_unmanaged "$m" && continue
    pu=$(nm_port_profile "$m" "$1" "$2") || { echo "no NetworkManager port profile of $1 for $m"; continue; }
    i=0
    while [ $i -lt 3 ]; do
      if [ "$(nmcli -g GENERAL.CON-UUID device show "$m" 2>/dev/null)" = "$pu" ]; then
        case "$(nmcli -g GENERAL.STATE device show "$m" 2>/dev/null)" in 100*) break ;; esac
      fi
      i=$((i+1)); nmcli connection up uuid "$pu" ifname "$m" || sleep 1
    done
  done
}

# A recorded route (its words, `-6 default via ...` too) is on $1 already: same destination, gateway and metric
# (ip shows no IPv4 metric 0), and the same src, mtu and advmss - one that came back without them (NM's profile
# lacks them, or they were lost) is replaced. A profile NM re-activated has put its routes back: replacing them
# would relabel them. A locked metric (`mtu lock N`) is never recorded, so such a route is not this one.
route_on() { # dev words...
  dev=$1; shift; fam=-4; [ "$1" = -6 ] && { fam=-6; shift; }
  dst=$1; shift; via=; metric=; src=; mtu=; advmss=
  case "$dst" in *:*) fam=-6 ;; esac # an IPv6 prefix is written without -6
  while [ $# -gt 0 ]; do case "$1" in
    via) via=$2; shift 2 ;; metric) metric=$2; shift 2 ;; src) src=$2; shift 2 ;; mtu) mtu=$2; shift 2 ;; advmss) advmss=$2; shift 2 ;; *) shift ;;
  esac; done
  ip "$fam" route show table main dev "$dev" 2>/dev/null | awk -v d="$dst" -v v="$via" -v m="${metric:-0}" -v s="$src" -v mt="$mtu" -v a="$advmss" '
    $1 == d { gv = ""; gm = 0; gs = ""; gt = ""; ga = ""
      for (i = 2; i < NF; i++) {
        if ($i == "via") gv = $(i + 1); if ($i == "metric") gm = $(i + 1); if ($i == "src") gs = $(i + 1)
        if ($i == "mtu") gt = $(i + 1); if ($i == "advmss") ga = $(i + 1)
      }
      if (gv == v && gm == m && gs == s && gt == mt && ga == a) f = 1 }
    END { exit !f }'
}
# A DHCP uplink given back: its static addresses (IPv6 beside the lease) and routes that are not there yet, its
# IPv4 default route left to the lease. Without NM (or before its profile has them) nothing else puts them back.
replay_static() { # dev; ADDRS, ROUTES as loaded
  for a in $ADDRS; do ip -o addr show dev "$1" | grep -qF " ${a%%/*}/" || ip addr replace "$a" dev "$1" || echo "cannot restore $a on $1"; done
  echo "$ROUTES" | tr ';' '\n' | while read -r r; do
    case "$r" in ''|default*) continue ;; esac
    # shellcheck disable=SC2086
    route_on "$1" $r || route_replace $r dev "$1" || echo "cannot restore the route $r on $1"
  done
}
