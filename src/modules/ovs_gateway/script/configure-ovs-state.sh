# The host-side script, part 2: what the rollback puts back. Before the first step the transaction
# saves the host's network state (global addresses, non-kernel routes, links' MAC/MTU/up, OVS
# bridges); the rollback undoes the move (restore_prev), then sweeps the host back to that snapshot
# (a step that went wrong half-way - an address on the wrong link - is undone too) and says what it
# could not restore. Files this run installed (script, boot unit, hint) are put back as they were.

# ovs-netdev/ovs-system are OVS's own datapath devices: they outlive the bridges, by design.
snap_links() {
  ip -o link show | sed -nE 's/^[0-9]+: ([^:@ ]+)(@[^:]*)?: <([^>]*)> mtu ([0-9]+).*link\/[a-z]+ ([0-9a-f:]+).*/\1 \4 \5 <\3>/p' |
    grep -v '^ovs-netdev \|^ovs-system ' |
    while read -r n m a f; do case "$f" in *,UP,*|*\<UP,*|*,UP\>*) u=1 ;; *) u=0 ;; esac; echo "$n $m $a $u"; done
}
snap_addrs() { ip -o addr show scope global | awk '{d=""; for (i=5;i<=NF;i++) if ($i=="dynamic") d=" dynamic"; print $2, $4 d}'; }
snap_routes() {
  # IPv6: every route of the main table (the uplink's static ones too); DHCPv6's come back with the lease.
  { ip -4 route show table main; ip -6 route show table main | grep -v ' proto dhcp '; } | grep -v ' proto kernel \| proto ra ' |
    sed -E 's/ (expires|pref) [^ ]+//g; s/ linkdown//; s/ +$//'
}
snap_bridges() { vsctl list-br 2>/dev/null; }

snapshot() { # dir
  mkdir -p "$1" || return 1
  snap_links >"$1/links" && snap_addrs >"$1/addrs" && snap_routes >"$1/routes" && { snap_bridges >"$1/bridges"; true; }
}

# What differs between the snapshot in $1 and the host now (empty = restored).
snapshot_diff() {
  d=$1; mkdir -p "$d/now"; snapshot "$d/now"
  for f in links addrs routes bridges; do diff "$d/$f" "$d/now/$f" | sed -n "s/^\([<>]\) /$f \1 /p"; done
}

restore_snapshot() { # dir: the host as it was before the transaction's first step
  d=$1; [ -f "$d/links" ] || return 0
  for br in $(snap_bridges); do grep -qxF "$br" "$d/bridges" || vsctl --if-exists del-br "$br"; done
  while read -r n m a u; do
    cur=$(snap_links | grep "^$n ") || continue
    set -- $cur
    [ "$3" = "$a" ] || ip link set dev "$n" address "$a" || echo "cannot restore the MAC of $n"
    [ "$2" = "$m" ] || ip link set dev "$n" mtu "$m" || echo "cannot restore the MTU of $n"
    if [ "$4" != "$u" ]; then if [ "$u" = 1 ]; then ip link set dev "$n" up; else ip link set dev "$n" down; fi; fi
  done <"$d/links"
  # Addresses the transaction put anywhere go; saved static ones come back (DHCP leases come back by DHCP).
  snap_addrs | while read -r dev a dyn; do
    awk -v d="$dev" -v a="$a" '$1 == d && $2 == a { f = 1 } END { exit !f }' "$d/addrs" || ip addr del "$a" dev "$dev"
  done
  while read -r dev a dyn; do
    [ "$dyn" = dynamic ] && continue
    ip -o addr show dev "$dev" | grep -qF " $a " || ip addr replace "$a" dev "$dev" || echo "cannot restore $a on $dev"
  done <"$d/addrs"
  # shellcheck disable=SC2086
  snap_routes | while read -r r; do grep -qxF "$r" "$d/routes" || ip route del $r; done
  # shellcheck disable=SC2086
  while read -r r; do snap_routes | grep -qxF "$r" || { src6_ready $r; ip route replace $r; } || echo "cannot restore the route $r"; done <"$d/routes"
}

# Files a run installed before its transaction (listed in $STAGE/installed as "<n> <path>", the
# old content as $STAGE/orig/<n>, kept in $LIB/orig-<id>): the rollback of a first move leaves none of them behind.
restore_installed() { # list origdir
  [ -f "$1" ] || return 0
  # Disabled first: with the unit file gone, systemctl could no longer remove its wants/ link.
  grep -qx 'enabled no' "$1" && systemctl disable -q "$BOOT_UNIT" 2>/dev/null
  while read -r n path; do
    [ "$n" = enabled ] && continue
    if [ -e "$2/$n" ]; then cp -p "$2/$n" "$path.hw-$$" && durable_mv "$path.hw-$$" "$path"; else rm -f "$path"; fi
  done <"$1"
  systemctl daemon-reload 2>/dev/null || true
}
