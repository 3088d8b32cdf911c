// configure_ovs (mode uplink) on a DHCP uplink with the nm backend, for real: both lab hosts run NM with its
// OVS plugin (`lab up --nm-ovs`); the second serves DHCP (dnsmasq, the first host's MAC reserved to its lab
// address), the first host's eth0 takes its lease through a NetworkManager profile. A withheld confirmation
// gives eth0 its lease back through that profile (NM holds it as before, no ovs-* profile left); the move
// keeps the lease on br-ex through NM's ovs-if-br-ex (DHCP client id = the NIC's MAC, which br-ex has):
// same address, default route metric 48, SSH on it; a second run and --check change nothing. In the VM tier
// (npm run test:vm): the first build of NM with OVS takes ~6 min per machine.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labInventoryYaml, type HostState } from '../../src/lab/index.js';
import { labExec } from '../../src/lab/ssh.js';
import { shellJoin } from '../../src/transports/quote.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { runRole } from '../roles-lab/sdn-agent-helpers.js';

test('nm backend, DHCP uplink: the lease comes back on a rollback and moves onto NM\'s ovs-if-br-ex', async (t) => {
  // The first build of NM with OVS (minutes, once per machine) comes before the lab is up.
  t.timeout(1_500_000, 'nmodh: the test\'s own deadline');
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-nmodh-'));
  let lab: LabHost | undefined;
  t.teardown(async () => { await lab?.close(); rmSync(dir, { recursive: true, force: true }); });
  lab = await labHost('nmodh', { hosts: 2, nmOvs: true });
  t.timeout(300_000, 'nmodh: the test\'s own deadline once the lab is up');
  const { state } = lab;
  const [client, server] = state.hosts;
  const gw = state.subnet.gateway;
  const onHost = async (h: HostState, cmd: string) => {
    const r = await labExec(state, h, cmd);
    if (r.code !== 0) throw new Error(`${h.name}: rc=${r.code}: ${cmd}\n${r.stderr}`);
    return r.stdout;
  };
  const mac = (await onHost(client!, 'cat /sys/class/net/eth0/address')).trim();
  const pool = gw.replace(/\.\d+$/, '');
  await onHost(server!, 'firewall-cmd -q --add-service=dhcp'); // firewalld's public zone drops DHCP requests otherwise
  await onHost(server!, shellJoin(['systemd-run', '--quiet', '--unit=hw-dhcp', 'dnsmasq', '--keep-in-foreground', '--user=root', '--port=0',
    '--interface=eth0', '--bind-interfaces', `--dhcp-range=${pool}.100,${pool}.150,255.255.255.0,10m`, `--dhcp-host=${mac},${client!.ip}`,
    `--dhcp-option=3,${gw}`, '--dhcp-leasefile=/run/hw-dhcp.leases', '--log-dhcp']));
  // eth0's lab address becomes a lease of the same address (a transient unit: the session blinks meanwhile).
  await onHost(client!, shellJoin(['systemd-run', '--quiet', '--collect', '--unit=hw-dhcpc', 'sh', '-c',
    'sleep 1; nmcli connection add type ethernet con-name dhcp0 ifname eth0 ipv4.method auto ipv6.method ignore && ip addr flush dev eth0 && nmcli connection up dhcp0']));
  let addr = '';
  for (let i = 0; i < 60 && !/ dynamic /.test(addr); i++) {
    await new Promise((r) => setTimeout(r, 1000));
    addr = await onHost(client!, 'ip -o -4 addr show dev eth0').catch(() => '');
  }
  t.regex(addr, new RegExp(`inet ${client!.ip.replaceAll('.', '\\.')}/24 .*dynamic`), 'eth0 holds its lease');

  const inventory = path.join(dir, 'inventory.yml');
  const playbook = path.join(dir, 'ovs.yml');
  writeFileSync(inventory, labInventoryYaml({ ...state, hosts: [client!] }));
  writeFileSync(playbook, '- hosts: all\n  gather_facts: false\n  roles:\n    - configure_ovs\n');
  const role = (vars: Record<string, unknown> = {}, check = false) => runRole(playbook, inventory, { configure_ovs_mode: 'uplink', configure_ovs_backend: 'nm', ...vars }, check);

  const drill = await role({ configure_ovs_confirm: false, configure_ovs_confirm_timeout: 20 });
  t.regex(drill.failed.join('\n'), /rolled back after [\d.]+ s: no confirmation from hostwire within 20 s/);
  t.regex(await onHost(client!, 'ip -o -4 addr show dev eth0'), new RegExp(`inet ${client!.ip.replaceAll('.', '\\.')}/24 .*dynamic`), 'the lease is back on eth0');
  t.regex(await onHost(client!, 'nmcli -t -f GENERAL.CONNECTION device show eth0'), /dhcp0/);
  t.notRegex(await onHost(client!, 'nmcli -t -f NAME connection show'), /ovs-/);

  const started = Date.now();
  const moved = await role();
  t.log(`DHCP move: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  t.deepEqual(moved.failed, []);
  t.regex(await onHost(client!, 'ip -o -4 addr show dev br-ex'), new RegExp(`inet ${client!.ip.replaceAll('.', '\\.')}/24 .*dynamic`), 'the same lease on br-ex');
  t.regex(await onHost(client!, 'ip route show default'), new RegExp(`default via ${gw.replaceAll('.', '\\.')} dev br-ex .*metric 48`));
  t.is((await onHost(client!, 'ip -o -4 addr show dev eth0')).trim(), '');
  t.regex(await onHost(client!, 'nmcli -t -f NAME,DEVICE connection show --active'), /^ovs-if-br-ex:br-ex$/m);
  t.regex(await onHost(client!, 'nmcli -t -f NAME,DEVICE connection show --active'), /^ovs-if-phys0:eth0$/m);
  t.is((await onHost(client!, 'cat /sys/class/net/br-ex/address')).trim(), mac, 'br-ex has the NIC MAC (the DHCP client id)');
  t.regex(await onHost(server!, 'cat /run/hw-dhcp.leases'), new RegExp(`${mac} ${client!.ip.replaceAll('.', '\\.')} `));
  t.deepEqual((await role()).changed, [], 'second run');
  const checked = await role({}, true);
  t.deepEqual([checked.changed, checked.failed], [[], []], '--check');
});
