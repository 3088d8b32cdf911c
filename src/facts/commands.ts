// One read-only command per fact; parsers live in parse.ts and are tested from recorded output.
export const FACT_COMMANDS: Record<string, string> = {
  os_release: 'cat /etc/os-release',
  kernel: 'uname -r; uname -m',
  hostname: 'hostname; hostname -f 2>/dev/null || hostname',
  nproc: 'nproc',
  meminfo: 'grep -E "^(MemTotal|MemFree|SwapTotal):" /proc/meminfo',
  addresses: 'ip -j addr',
  route4: 'ip -j route show default',
  route6: 'ip -j -6 route show default',
  systemd: 'test -d /run/systemd/system && echo yes || echo no',
  nm: 'command -v nmcli >/dev/null && { nmcli -t -f RUNNING general 2>/dev/null || echo stopped; ls /usr/lib/*/NetworkManager/*/libnm-device-plugin-*.so /usr/lib64/NetworkManager/*/libnm-device-plugin-*.so 2>/dev/null; } || echo absent',
  ovs: 'command -v ovs-vsctl >/dev/null && ovs-vsctl --version | head -1 || echo absent',
  firewalld: 'command -v firewall-cmd >/dev/null || { echo absent; exit 0; }; if [ -d /run/systemd/system ]; then systemctl is-active firewalld; else test -e /run/firewalld && echo active || echo inactive; fi',
  pkg_mgr: 'for p in apt-get dnf yum zypper apk; do command -v $p >/dev/null && { echo $p; break; }; done',
};
