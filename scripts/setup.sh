#!/usr/bin/env bash
# Installs what hostwire's lab and tests need on a fresh Debian 12 machine (run as root).
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
# qemu: the lab's VM host kind (a real kernel for ipip); chromium: the HTML report and graph tests;
# ansible-core: the Ansible-module fallback's tests and the bench's ansible-playbook side (never needed by native modules).
# shellcheck, dash: the host scripts test (test/modules/host-scripts.test.ts).
for pair in systemd-nspawn:systemd-container mmdebstrap:mmdebstrap sshd:openssh-server ssh:openssh-client ip:iproute2 flock:util-linux \
    qemu-system-x86_64:qemu-system-x86 qemu-img:qemu-utils mke2fs:e2fsprogs chromium:chromium python3:python3 ansible-playbook:ansible-core \
    shellcheck:shellcheck dash:dash; do
  bin=${pair%%:*}; pkg=${pair##*:}
  command -v "$bin" >/dev/null 2>&1 || [ -x "/usr/sbin/$bin" ] || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  apt-get update -qq
  # policy-rc.d keeps Debian's maintainer scripts from starting sshd on this machine.
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  rm -f /usr/sbin/policy-rc.d
fi
# Every lab host's systemd takes inotify instances; the kernel default (128 per user) runs out with a few
# labs up at once ("Too many open files" in user@0.service). Raise it, never lower it.
if [ "$(cat /proc/sys/fs/inotify/max_user_instances)" -lt 8192 ]; then
  sysctl -qw fs.inotify.max_user_instances=8192
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
npm run build >/dev/null
