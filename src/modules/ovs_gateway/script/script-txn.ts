// The host-side script, part 2: the commit-confirmed transaction. It runs as a transient systemd
// unit (systemd-run), so it survives the SSH session that started it: apply every action, check
// connectivity, then wait for hostwire's confirm file; no confirm in time, a failed check or a
// failed apply (or SIGTERM) rolls everything back and a result file says why.
export const SCRIPT_TXN = `
now() { cut -d' ' -f1 /proc/uptime; }
result() { # status reason
  { echo "status=$1"; echo "reason=$2"; echo "diag=$DIAG"; echo "started=$T0"; echo "ended=$(now)"; } >"$RUN/result-$ID.tmp"
  mv "$RUN/result-$ID.tmp" "$RUN/result-$ID"
}

diagnose() {
  mkdir -p "$DIAG"
  { ip addr; echo; ip route; echo; ip -6 route; } >"$DIAG/ip.txt" 2>&1
  ovs-vsctl --timeout=5 show >"$DIAG/ovs-vsctl-show.txt" 2>&1
  nft list ruleset >"$DIAG/nft.txt" 2>&1
  for f in "$ETC"/*.env "$LIB"/*.prev; do [ -e "$f" ] && cp "$f" "$DIAG/"; done
  journalctl -u "hostwire-configure-ovs-$ID" --no-pager -o short-precise >"$DIAG/journal.txt" 2>&1
}

rollback() {
  trap '' TERM INT HUP
  echo "rolling back: $1"
  diagnose
  for a in $(echo "$ACTIONS" | tr ' ' '\\n' | sed '1!G;h;$!d'); do
    verb=\${a%%:*}; b=\${a#*:}
    if [ -e "$LIB/$b.env.before-$ID" ]; then
      mv "$LIB/$b.env.before-$ID" "$ETC/$b.env"; apply_bridge "$ETC/$b.env" || echo "re-applying the old $b failed"
    elif [ "$verb" = apply ]; then
      restore_prev "$b" || echo "restoring the uplink of $b failed"
      rm -f "$LIB/$b.prev" "$LIB/$b.resolv"
    fi
  done
  result rolled-back "$1"
  exit 1
}

check_target() { # bridge target: a few pings over 8 s
  i=0; while [ $i -lt 8 ]; do ping -n -c1 -W1 -I "$1" "$2" >/dev/null 2>&1 && return 0; i=$((i+1)); sleep 0.2; done; return 1
}

txn() {
  ID=$1; TIMEOUT=$2; shift 2; ACTIONS="$*"; T0=$(now); DIAG="$LIB/diag-$ID"
  mkdir -p "$RUN" "$LIB" "$ETC"; rm -f "$RUN/result-$ID" "$RUN/waiting-$ID"
  trap 'rollback "interrupted (SIGTERM/SIGINT)"' TERM INT HUP
  for a in $ACTIONS; do
    verb=\${a%%:*}; b=\${a#*:}
    [ -e "$ETC/$b.env" ] && cp "$ETC/$b.env" "$LIB/$b.env.before-$ID"
    if [ "$verb" = apply ]; then
      [ -e "$LIB/$b.prev" ] || cp "$STAGE/$b.prev" "$LIB/$b.prev"
      [ -e "$LIB/$b.resolv" ] || cp /etc/resolv.conf "$LIB/$b.resolv" 2>/dev/null || true
      cp "$STAGE/$b.env" "$ETC/$b.env"
      if [ -e "$STAGE/$b.nm" ]; then cp "$STAGE/$b.nm" "$ETC/$b.nm"; else rm -f "$ETC/$b.nm"; fi
      apply_bridge "$ETC/$b.env" || rollback "applying $b failed (see journal.txt)"
    else
      restore_prev "$b" || rollback "removing $b failed (see journal.txt)"
    fi
  done
  for a in $ACTIONS; do
    b=\${a#*:}; [ -e "$ETC/$b.env" ] || continue
    load_env "$ETC/$b.env"
    for c in $CHECK; do check_target "$BRIDGE" "$c" || rollback "connectivity check failed: $c does not answer through $BRIDGE"; done
  done
  echo "applied; waiting up to $TIMEOUT s for the confirmation $RUN/confirm-$ID"
  date +%s >"$RUN/waiting-$ID"
  # Nanoseconds: whole seconds could cut hostwire's window short by up to a second.
  end=$(( $(date +%s%N) + TIMEOUT * 1000000000 ))
  while [ ! -e "$RUN/confirm-$ID" ]; do
    [ "$(date +%s%N)" -lt "$end" ] || rollback "no confirmation from hostwire within $TIMEOUT s"
    sleep 0.2
  done
  for a in $ACTIONS; do
    b=\${a#*:}; rm -f "$LIB/$b.env.before-$ID"
    [ -e "$ETC/$b.env" ] || rm -f "$LIB/$b.prev" "$LIB/$b.resolv"
  done
  rm -f "$RUN/confirm-$ID" "$RUN/waiting-$ID"
  result ok "confirmed"
  echo "confirmed"
}

boot() {
  rc=0
  for f in "$ETC"/*.env; do [ -e "$f" ] || continue; apply_bridge "$f" || rc=1; done
  return $rc
}

case "$1" in
  txn) shift; txn "$@" ;;
  boot) boot ;;
  restore) restore_prev "$2" ;;
  *) echo "usage: $0 txn ID TIMEOUT apply:BRIDGE|remove:BRIDGE... | boot | restore BRIDGE" >&2; exit 2 ;;
esac
`;
