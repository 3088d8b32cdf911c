# The host-side script, part 1d: a DHCP uplink ifupdown's ISC dhclient held (`iface eth0 inet dhcp`, IFUPDOWN_FILE
# and IFUPDOWN_LINE as loaded). While the port is the bridge's its stanza is `inet manual`: ifupdown at boot brings it
# up without a DHCP client beside the bridge's (systemd-networkd's, with dhclient's client id), and a shutdown's
# ifdown runs no `dhclient -r` (that would release the lease the bridge holds). POSIX sh.

IFUPDOWN_MARK='# hostwire configure_ovs: this interface is a port of an OVS bridge, which holds its DHCP lease (put back on removal); it was:'

# The dhclient ifupdown runs on $1 (its pid file, the process still dhclient).
dhclient_pid() { # dev
  p=$(cat "/run/dhclient.$1.pid" 2>/dev/null) || return 1
  case "$p" in ''|*[!0-9]*) return 1 ;; esac
  [ "$(cat "/proc/$p/comm" 2>/dev/null)" = dhclient ] && proc_alive "$p" || return 1
  echo "$p"
}

# A process that has not exited (a zombie has: its parent has yet to reap it).
proc_alive() { # pid
  st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
  [ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

# Rewrites $1 through the awk program $2 (its -v variables after it) in place, atomically, mode and owner kept.
ifupdown_edit() { # file awk-program awk-args...
  f=$1; prog=$2; shift 2
  if cp -p "$f" "$f.hw-$$" && awk "$@" "$prog" "$f" >"$f.hw-$$" && durable_mv "$f.hw-$$" "$f"; then return 0; fi
  rm -f "$f.hw-$$"; return 1
}

# The move: the stanza made `inet manual` (the original line kept in a comment above it), then dhclient stopped
# without a release (SIGTERM: `dhclient -x` does the same and then runs its script's STOP) - the bridge has the lease.
ifupdown_port_off() { # the bridge's env is loaded
  [ -n "$IFUPDOWN_FILE" ] || return 0
  if grep -qxF -- "$IFUPDOWN_LINE" "$IFUPDOWN_FILE"; then
    # shellcheck disable=SC2016
    step ifupdown_edit "$IFUPDOWN_FILE" '$0 == o && !d { print m " " o; print "iface " u " inet manual"; d = 1; next } { print }' \
      -v o="$IFUPDOWN_LINE" -v m="$IFUPDOWN_MARK" -v u="$UPLINK" || { fail "cannot make $UPLINK's stanza in $IFUPDOWN_FILE inet manual"; return 1; }
    echo "$IFUPDOWN_FILE: $UPLINK is inet manual while a port of $BRIDGE"
  fi
  p=$(dhclient_pid "$UPLINK") || return 0
  echo "stopping dhclient on $UPLINK (pid $p; no release: $BRIDGE holds the lease)"
  kill -TERM "$p"
  i=0; while proc_alive "$p" && [ $i -lt 50 ]; do i=$((i+1)); sleep 0.1; done
  proc_alive "$p" && { fail "dhclient (pid $p) on $UPLINK did not stop in 5 s"; return 1; }
  rm -f "/run/dhclient.$UPLINK.pid"
}

# The reverse move: the stanza as it was, then ifupdown runs dhclient again (`ifup --force`: ifupdown still counts
# the port as up - the manual stanza's, or the lease's before the move); its INIT-REBOOT asks for the same address.
# In a unit of its own that stays (RemainAfterExit): dhclient in the transaction's unit was killed with it (lab host).
ifupdown_back() { # dev; IFUPDOWN_FILE, IFUPDOWN_LINE as loaded from the prev
  [ -n "$IFUPDOWN_FILE" ] || return 0
  if grep -qxF -- "$IFUPDOWN_MARK $IFUPDOWN_LINE" "$IFUPDOWN_FILE"; then
    # shellcheck disable=SC2016
    ifupdown_edit "$IFUPDOWN_FILE" '$0 == m " " o { getline nx; print o; if (nx != "iface " u " inet manual") print nx; next } { print }' \
      -v o="$IFUPDOWN_LINE" -v m="$IFUPDOWN_MARK" -v u="$1" || echo "cannot put back $1's stanza in $IFUPDOWN_FILE"
  fi
  if dhclient_pid "$1" >/dev/null; then echo "dhclient runs on $1 already"; return 0; fi
  echo "ifupdown takes up the lease on $1 again (ifup --force $1)"
  if command -v systemd-run >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    systemctl stop "hostwire-ifup-$1.service" 2>/dev/null
    systemd-run --quiet --collect --unit="hostwire-ifup-$1" -p RemainAfterExit=yes ifup --force -- "$1" || echo "ifup --force $1 failed"
  else
    ifup --force -- "$1" || echo "ifup --force $1 failed"
  fi
  i=0; until has_v4 "$1" || [ $i -ge 60 ]; do i=$((i+1)); sleep 0.5; done
  has_v4 "$1" || echo "no lease on $1 in 30 s"
}
