# The host-side script, part 4: the commit-confirmed transaction. It runs as a transient systemd
# unit (systemd-run), so it survives the SSH session that started it: snapshot the host, apply every
# action (any failing step aborts), check (script-check), then wait for hostwire's confirm file and
# check again; no confirm in time, a failed check or step (or SIGTERM) rolls everything back to the
# snapshot, and a result file says why (the first failing command and its output).

now() { cut -d' ' -f1 /proc/uptime; }
result() { # status reason
  { echo "status=$1"; echo "reason=$(printf '%s' "$2" | tr '\n\r' '  ')"; echo "diag=$DIAG"; echo "started=$T0"; echo "ended=$(now)"; } >"$RUN/result-$ID.tmp"
  mv "$RUN/result-$ID.tmp" "$RUN/result-$ID"
}

diagnose() {
  mkdir -p "$DIAG"
  { ip addr; echo; ip route; echo; ip -6 route; } >"$DIAG/ip.txt" 2>&1
  ovs-vsctl --timeout=5 show >"$DIAG/ovs-vsctl-show.txt" 2>&1
  nft list ruleset >"$DIAG/nft.txt" 2>&1
  for f in "$ETC"/*.env "$LIB"/*.prev; do [ -e "$f" ] && cp "$f" "$DIAG/"; done
  # networkd's lines too: it brings a DHCP lease or SLAAC/DHCPv6 onto the bridge.
  journalctl -u "hostwire-configure-ovs-$ID" -u systemd-networkd --no-pager -o short-precise >"$DIAG/journal.txt" 2>&1
}

# systemd stops the unit at its RuntimeMaxSec (TXN_LIMIT: apply_timeout + confirm_timeout): a step that hung is
# killed with the rest of the unit and the trap rolls back, saying so.
stopped() {
  case "$TXN_LIMIT" in ''|*[!0-9]*) TXN_LIMIT=0 ;; esac
  el=$(awk -v a="$T0" -v b="$(now)" 'BEGIN { printf "%d", b - a }')
  if [ "$TXN_LIMIT" -gt 0 ] && [ "$el" -ge $((TXN_LIMIT - 5)) ]; then
    echo "stopped by its limit: the move ran $el s, past apply_timeout + confirm_timeout ($TXN_LIMIT s)"
  else echo "interrupted (SIGTERM/SIGINT)"; fi
}

rollback() {
  trap '' TERM INT HUP
  echo "rolling back: $1"
  diagnose
  for a in $(echo "$ACTIONS" | tr ' ' '\n' | sed '1!G;h;$!d'); do
    verb=$(echo "$a" | cut -d: -f1); b=$(echo "$a" | cut -d: -f2-)
    if [ -e "$LIB/$b.env.before-$ID" ]; then
      mv "$LIB/$b.env.before-$ID" "$ETC/$b.env"; FAILED=; apply_bridge "$ETC/$b.env" || echo "re-applying the old $b failed: $FAILED"
    elif [ "$verb" = apply ]; then
      rm -f "$ETC/$b.env"
      restore_prev "$b" || echo "restoring the uplink of $b failed"
      rm -f "$LIB/$b.prev" "$LIB/$b.resolv"
    fi
  done
  # Then back to the snapshot itself: whatever a step did half-way is undone too.
  reason=$1
  restore_snapshot "$SNAP"
  left=$(snapshot_diff "$SNAP" | head -n 8 | tr '\n' ';')
  [ -z "$left" ] || reason="$reason; NOT restored: $left"
  restore_installed "$LIB/installed-$ID" "$LIB/orig-$ID"
  rm -rf "$LIB/installed-$ID" "$LIB/orig-$ID" "$SNAP"
  result rolled-back "$reason"
  exit 1
}

txn() {
  ID=$1; TIMEOUT=$2; shift 2; ACTIONS="$*"; T0=$(now); DIAG="$LIB/diag-$ID"; SNAP="$LIB/snap-$ID"; FAILED=
  mkdir -p "$RUN" "$LIB" "$ETC" || exit 1
  rm -f "$RUN/result-$ID" "$RUN/waiting-$ID"
  trap 'rollback "$(stopped)"' TERM INT HUP
  # The SSH client's address (hostwire's session) and the device that reaches it before the move.
  SSH_ADDR=$(cat "$STAGE/ssh-client" 2>/dev/null); case "$SSH_ADDR" in *[!0-9a-fA-F:.]*) SSH_ADDR= ;; esac
  SSH_DEV=; [ -z "$SSH_ADDR" ] || SSH_DEV=$(dev_of "$SSH_ADDR")
  snapshot "$SNAP" || { result rolled-back "cannot save the host's state in $SNAP"; exit 1; }
  if [ -f "$STAGE/installed" ]; then
    mkdir -p "$LIB/orig-$ID" && cp -p "$STAGE"/orig/* "$LIB/orig-$ID/" 2>/dev/null; cp "$STAGE/installed" "$LIB/installed-$ID"
  fi
  for a in $ACTIONS; do
    verb=$(echo "$a" | cut -d: -f1); b=$(echo "$a" | cut -d: -f2-)
    if [ -e "$ETC/$b.env" ]; then step cp "$ETC/$b.env" "$LIB/$b.env.before-$ID" || rollback "saving $b.env: $FAILED"; fi
    if [ "$verb" = apply ]; then
      [ -e "$LIB/$b.prev" ] || step cp "$STAGE/$b.prev" "$LIB/$b.prev" || rollback "saving $b.prev: $FAILED"
      [ -e "$LIB/$b.resolv" ] || cp /etc/resolv.conf "$LIB/$b.resolv" 2>/dev/null || true
      step cp "$STAGE/$b.env" "$ETC/$b.env" || rollback "installing $b.env: $FAILED"
      if [ -e "$STAGE/$b.nm" ]; then step cp "$STAGE/$b.nm" "$ETC/$b.nm" || rollback "installing $b.nm: $FAILED"; else rm -f "$ETC/$b.nm"; fi
      apply_bridge "$ETC/$b.env" || rollback "applying $b failed: $FAILED"
    else
      restore_prev "$b" || rollback "removing $b failed: $FAILED"
    fi
  done
  check_all || rollback "$FAILED"
  echo "applied and checked; waiting up to $TIMEOUT s for the confirmation $RUN/confirm-$ID"
  echo "$(date +%s) $TIMEOUT" >"$RUN/waiting-$ID"
  # Nanoseconds: whole seconds could cut hostwire's window short by up to a second.
  end=$(( $(date +%s%N) + TIMEOUT * 1000000000 ))
  while [ ! -e "$RUN/confirm-$ID" ]; do
    [ "$(date +%s%N)" -lt "$end" ] || rollback "no confirmation from hostwire within $TIMEOUT s"
    sleep 0.2
  done
  # A confirmation only holds for a host that still passes the checks (a route deleted meanwhile).
  check_all || rollback "at the confirmation: $FAILED"
  for a in $ACTIONS; do
    b=$(echo "$a" | cut -d: -f2-); rm -f "$LIB/$b.env.before-$ID"
    [ -e "$ETC/$b.env" ] || rm -f "$LIB/$b.prev" "$LIB/$b.resolv"
  done
  rm -rf "$SNAP" "$LIB/orig-$ID" "$LIB/installed-$ID"
  rm -f "$RUN/confirm-$ID" "$RUN/waiting-$ID"
  result ok "confirmed"
  echo "confirmed"
}

boot() {
  rc=0
  mkdir -p "$RUN" # /run is empty at boot; the apply keeps its temporary files there
  for f in "$ETC"/*.env; do [ -e "$f" ] || continue; FAILED=; apply_bridge "$f" || { echo "$FAILED"; rc=1; }; done
  return $rc
}

case "$1" in
  txn) shift; txn "$@" ;;
  boot) boot ;;
  restore) restore_prev "$2" ;;
  *) echo "usage: $0 txn ID TIMEOUT apply:BRIDGE|remove:BRIDGE... | boot | restore BRIDGE" >&2; exit 2 ;;
esac
