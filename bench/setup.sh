#!/usr/bin/env bash
# What `npm run bench` needs beyond the project's own setup (scripts/setup.sh: lab packages, OpenSSH,
# npm ci, build): ansible-core from Debian (the contender, 2.14 on bookworm) and GNU time (CPU and
# peak memory of each run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
need=()
command -v ansible-playbook >/dev/null || need+=(ansible-core)
[ -x /usr/bin/time ] || need+=(time)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
