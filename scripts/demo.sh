#!/usr/bin/env bash
# The demo: throw-away hosts, the site playbook, then the same run again (changed=0).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
hw() { node dist/src/cli/main.js "$@"; }
LAB=${LAB:-lab}
HOSTS=${HOSTS:-3}
hw lab up --name "$LAB" --hosts "$HOSTS"
inv=$(mktemp /tmp/hostwire-demo-XXXX.yml)
hw lab inventory --name "$LAB" > "$inv"
echo; echo "== first run: playbooks/site.yml on $HOSTS lab hosts"
hw run playbooks/site.yml -i "$inv" --no-live
echo; echo "== second run: nothing left to change"
hw run playbooks/site.yml -i "$inv" --no-live
cat <<MSG

Look around:
  node dist/src/cli/main.js lab ls
  node dist/src/cli/main.js lab ssh $LAB-1 --name $LAB
  node dist/src/cli/main.js run playbooks/site.yml -i $inv --check --diff
Tear down:
  node dist/src/cli/main.js lab down --name $LAB
MSG
