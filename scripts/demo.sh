#!/usr/bin/env bash
# The demo: throw-away hosts, the site playbook (node roles, etcd, flannel host-gw, CNI, agent), the same
# run again (changed=0), then the pod-to-pod check across the nodes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
hw() { node dist/src/cli/main.js "$@"; }
LAB=${LAB:-lab}
HOSTS=${HOSTS:-3}
SDN=${SDN:-flannel-hostgw}
hw lab up --name "$LAB" --hosts "$HOSTS"
dir=$(mktemp -d /tmp/hostwire-demo-XXXX)
hw lab inventory --name "$LAB" > "$dir/lab.yml"
# The cluster's groups over the lab's hosts: the first is master and etcd member, all run pods.
{
  echo "[masters]"; echo "$LAB-1"
  echo "[etcd]"; echo "$LAB-1"
  echo "[nodes]"; for i in $(seq 1 "$HOSTS"); do echo "$LAB-$i"; done
  echo "[all:vars]"; echo "sdn=$SDN"; echo "cluster_network=10.244.0.0/16"
} > "$dir/groups.ini"
inv=(-i "$dir/lab.yml" -i "$dir/groups.ini")
echo; echo "== first run: playbooks/site.yml on $HOSTS lab hosts (sdn=$SDN)"
hw run playbooks/site.yml "${inv[@]}" --no-live
echo; echo "== second run: nothing left to change"
hw run playbooks/site.yml "${inv[@]}" --no-live
echo; echo "== pod-to-pod: a test pod on every node pings every other pod"
hw run playbooks/pod-check.yml "${inv[@]}" --no-live
cat <<MSG

Look around:
  node dist/src/cli/main.js lab ls
  node dist/src/cli/main.js lab ssh $LAB-1 --name $LAB -- ip route
  node dist/src/cli/main.js subnets ${inv[*]}
  node dist/src/cli/main.js run playbooks/site.yml ${inv[*]} --check --diff --detailed-exitcode
Tear down:
  node dist/src/cli/main.js lab down --name $LAB
MSG
