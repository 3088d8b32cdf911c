#!/usr/bin/env bash
# Opt-in (not run by CI): real third-party roles through hostwire and through ansible-playbook on twin
# lab hosts - linux-system-roles firewall and network (their library/ modules run through hostwire's
# fallback) and geerlingguy.firewall. For each: first and second run of both tools (changed counts,
# seconds), then the state both left (firewalld zones, NM profiles, iptables rules) compared.
# The roles are fetched into a scratch folder (never into this repository); ROLES_DIR=/path reuses
# copies already there (folders linux-system-roles.firewall, linux-system-roles.network, geerlingguy.firewall).
# Needs: root, ansible-core (ansible-playbook), network access to GitHub (unless ROLES_DIR) and Debian's mirror.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$PWD
LAB=${LAB:-realroles}
hw() { node "$here/dist/src/cli/main.js" "$@"; }
[ -e dist/src/cli/main.js ] || npm run build
command -v ansible-playbook >/dev/null || { echo "ansible-playbook not found: apt install ansible-core" >&2; exit 2; }

scratch=$(mktemp -d /tmp/hostwire-real-roles-XXXX)
labs=()
cleanup() { for l in "${labs[@]}"; do hw lab down --name "$l" >/dev/null 2>&1 || true; done; }
trap cleanup EXIT
mkdir -p "$scratch/roles"
fetch() { # fetch NAME URL
  if [ -n "${ROLES_DIR:-}" ]; then cp -r "$ROLES_DIR/$1" "$scratch/roles/$1"; else git clone -q --depth 1 "$2" "$scratch/roles/$1"; fi
  echo "$1: $(git -C "$scratch/roles/$1" rev-parse HEAD 2>/dev/null || echo "from $ROLES_DIR")"
}
fetch linux-system-roles.firewall https://github.com/linux-system-roles/firewall
fetch linux-system-roles.network https://github.com/linux-system-roles/network
fetch geerlingguy.firewall https://github.com/geerlingguy/ansible-role-firewall
cp scripts/real-roles/*.yml scripts/real-roles/state.sh "$scratch/"
export ANSIBLE_CONFIG=$here/bench/ansible/ansible.cfg ANSIBLE_GATHERING=implicit ANSIBLE_ROLES_PATH=$scratch/roles

# Two hosts per lab: <lab>-1 is hostwire's, <lab>-2 ansible-playbook's. The network role needs
# python3-gi and NM's typelib on the host, package_facts python3-apt.
up() { # up LAB
  labs+=("$1")
  hw lab up --name "$1" --hosts 2 --packages python3-gi,gir1.2-nm-1.0,python3-apt >/dev/null
  hw lab inventory --name "$1" > "$scratch/$1.yml"
}
up "${LAB}a"; up "${LAB}b"

hostssh() { # hostssh LAB HOST: the state script on that host
  local d=/var/lib/hostwire/labs/$1 ip
  ip=$(awk -v h="$2:" '$1 == h { getline; print $2; exit }' "$scratch/$1.yml")
  [ -n "$ip" ] || { echo "no address for $2 in $scratch/$1.yml" >&2; exit 1; }
  ip netns exec "hw-$1" ssh -q -i "$d/id_ed25519" -o UserKnownHostsFile="$d/known_hosts" -o StrictHostKeyChecking=yes \
    -o IdentitiesOnly=yes -o BatchMode=yes "root@$ip" bash -s < "$scratch/state.sh"
}
timed() { # timed LOG CMD...: runs CMD, prints "seconds changed"
  local log=$1 t0 t1; shift
  t0=$(date +%s.%N); "$@" > "$log" 2>&1 || { echo "FAILED: $* (see $log)" >&2; tail -20 "$log" >&2; exit 1; }; t1=$(date +%s.%N)
  printf '%.1f %s\n' "$(echo "$t1 - $t0" | bc)" "$(grep -Eo 'changed=[0-9]+' "$log" | tail -1 | cut -d= -f2)"
}
rows=()
compare() { # compare LAB PLAYBOOK
  local lab=$1 pb=$2 inv="$scratch/$1.yml" r
  cd "$scratch"
  for run in 1 2; do
    r="$pb run $run: hostwire $(timed "$scratch/hw-$pb-$run.log" hw run -i "$inv" -l "$lab-1" --no-live "$pb")"
    r="$r | ansible-playbook $(timed "$scratch/an-$pb-$run.log" ip netns exec "hw-$lab" ansible-playbook -i "$inv" -l "$lab-2" "$pb")"
    rows+=("$r")
  done
  hostssh "$lab" "$lab-1" > "$scratch/state-$pb-hostwire.txt"
  hostssh "$lab" "$lab-2" > "$scratch/state-$pb-ansible.txt"
  if diff -u "$scratch/state-$pb-ansible.txt" "$scratch/state-$pb-hostwire.txt" > "$scratch/state-$pb.diff"; then
    rows+=("$pb state: the same on both hosts ($(wc -l < "$scratch/state-$pb-hostwire.txt") lines)")
  else
    rows+=("$pb state: DIFFERS, see $scratch/state-$pb.diff")
  fi
  cd "$here"
}
compare "${LAB}a" lsr-firewall.yml
compare "${LAB}a" lsr-network.yml
compare "${LAB}b" geerlingguy-firewall.yml
echo; echo "== hostwire vs ansible-playbook (seconds changed), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%s\n' "${rows[@]}"
echo "logs and state dumps: $scratch"
! grep -q DIFFERS <(printf '%s\n' "${rows[@]}")
