// `hostwire lab ...` subcommands; the lead's CLI calls registerLabCommands(program).
import { Command, Option } from 'commander';
import { labDown, labUp } from './lab.js';
import { labList, requireHost, requireLab, labReboot } from './lab-ops.js';
import { labInventoryYaml } from './inventory.js';
import { labSshInteractive } from './ssh.js';
import { DEFAULT_LAB } from './names.js';
import { parseWire, type Wire } from './vm/nics.js';
import { labSetLink } from './lab-link.js';

const say = (line: string): void => void process.stderr.write(`${line}\n`);

export function registerLabCommands(program: Command): Command {
  const lab = program.command('lab').description('throw-away hosts on this machine (systemd-nspawn, private network namespaces)')
    .addHelpText('after', '\nExamples:\n  hostwire lab up --name demo --hosts 3\n  hostwire lab inventory --name demo > inv.yml && hostwire run site.yml -i inv.yml\n  hostwire lab ssh demo-1\n  hostwire lab down --name demo');
  const nameOpt = (): Option => new Option('-n, --name <lab>', 'lab name: 1-12 lowercase letters/digits').default(DEFAULT_LAB);

  lab.command('up').description('build/reuse the rootfs and boot a lab; hosts are named <lab>-1, <lab>-2 ...')
    .addHelpText('after', '\nExamples:\n  hostwire lab up --name demo --hosts 2\n  hostwire lab up --name ovs --hosts 3 --vms 1          # the 3rd host is a qemu VM (own kernel)\n  hostwire lab up --name fw --packages firewalld,nftables\n  hostwire lab up --name nm --hosts 1 --nm-ovs              # NetworkManager activates ovs-* profiles')
    .addOption(nameOpt())
    .option('--hosts <n>', 'number of hosts', (v) => Number(v), 3)
    .option('--vms <n>', 'the last N hosts are VMs (qemu, own kernel: ipip, GRE, VLAN, kernel OVS; ~1 min to boot)', (v) => Number(v), 0)
    .option('--vm-memory <mb>', 'memory per VM host in MB', (v) => Number(v), 1024)
    .option('--vm-selinux', 'VM hosts boot with SELinux on, permissive (Debian policy "default", files labelled; own cached image)')
    .option('--vm-nics <n>', 'NICs per VM host (eth0, eth1, ... on the lab bridge unless wired)', (v) => Number(v), 1)
    .option('--vm-kernel-arg <word>', 'an extra kernel command-line word for VM hosts, e.g. ipv6.disable=1 (repeatable)', (v: string, all: string[]) => [...all, v], [] as string[])
    .option('--wire <a=b>', 'point-to-point link HOST:NIC=HOST:NIC between two VM hosts\' extra NICs (a LACP partner; repeatable)',
      (v: string, all: Wire[]) => [...all, parseWire(v)], [] as Wire[])
    .option('--packages <list...>', 'extra Debian packages for the rootfs (comma or space separated)')
    .option('--nm-ovs', "hosts (nspawn and VM) run NetworkManager with its OVS device plugin (Debian's lacks it; rebuilt from Debian's source once per machine, minutes)")
    .option('--timeout <seconds>', 'give up booting after this long (VM hosts: at least 600 s)', (v) => Number(v), 120)
    .action(async (o: { name: string; hosts: number; vms: number; vmMemory: number; vmNics: number; vmSelinux?: boolean; vmKernelArg: string[]; wire: Wire[]; packages?: string[]; nmOvs?: boolean; timeout: number }) => {
      const packages = (o.packages ?? []).flatMap((p) => p.split(',')).filter(Boolean);
      const r = await labUp({ name: o.name, hosts: o.hosts, vms: o.vms, vm: { memoryMb: o.vmMemory, nics: o.vmNics, selinux: o.vmSelinux, kernelArgs: o.vmKernelArg }, wires: o.wire, packages, nmOvs: o.nmOvs,
        timeoutMs: o.timeout * 1000, onProgress: say });
      for (const h of r.state.hosts) console.log(`${h.name}\t${h.ip}${h.kind === 'vm' ? '\tvm' : ''}`);
      say(`lab ${o.name} up in ${r.seconds.toFixed(1)} s on ${r.state.subnet.cidr}`);
      if (r.degraded.length) {
        for (const d of r.degraded) say(`warning: ${d.host} is ${d.state}; failed units: ${d.failedUnits.join(', ') || 'none listed'}`);
        process.exitCode = 2;
      }
    });

  lab.command('down').description('remove a lab (also a half-made or crashed one)')
    .addHelpText('after', '\nExamples:\n  hostwire lab down --name demo\n  hostwire lab down                 # the default lab').addOption(nameOpt())
    .action(async (o: { name: string }) => {
      const started = Date.now();
      const r = await labDown(o.name);
      say(`lab ${o.name} down in ${((Date.now() - started) / 1000).toFixed(1)} s (${r.netns.length} namespaces removed)`);
    });

  lab.command('ls').description('list labs on this machine')
    .addHelpText('after', '\nExamples:\n  hostwire lab ls').action(async () => {
    for (const l of await labList()) {
      console.log(`${l.name}\t${l.status}\t${l.subnet ?? '-'}\t${l.hosts.map((h) => `${h.name}=${h.ip}${h.kind === 'vm' ? '(vm)' : ''}${h.running ? '' : '(down)'}`).join(' ')}`);
    }
  });

  lab.command('ssh').description('ssh into a lab host as root (from inside the lab namespace)')
    .addHelpText('after', '\nExamples:\n  hostwire lab ssh demo-1\n  hostwire lab ssh demo-2 ip -br addr\n  hostwire lab ssh 1 --name demo journalctl -u ovs-vswitchd')
    .argument('<host>', 'host name (lab-1), index (1) or IP').argument('[command...]', 'command to run instead of a shell')
    .addOption(new Option('-n, --name <lab>', 'lab name (default: from the host name)'))
    .action(async (host: string, command: string[], o: { name?: string }) => {
      const { state, host: h } = await requireHost(host, o.name);
      process.exitCode = await labSshInteractive(state, h, command);
    });

  lab.command('inventory').description('print the lab as an Ansible-format YAML inventory')
    .addHelpText('after', '\nExamples:\n  hostwire lab inventory --name demo > inv.yml').addOption(nameOpt())
    .action(async (o: { name: string }) => {
      process.stdout.write(labInventoryYaml(await requireLab(o.name)));
    });

  lab.command('link').description("plug or unplug a VM host NIC's cable (the guest sees carrier go and come)")
    .addHelpText('after', '\nExamples:\n  hostwire lab link demo-3 eth1 down     # bond failover drill\n  hostwire lab link demo-3 eth1 up')
    .argument('<host>').argument('<nic>', 'eth0, eth1, ...').argument('<state>', 'up or down')
    .addOption(new Option('-n, --name <lab>', 'lab name (default: from the host name)'))
    .action(async (host: string, nic: string, state: string, o: { name?: string }) => {
      await labSetLink(host, nic, state, { name: o.name });
    });

  lab.command('reboot').description('power-cycle a host keeping its disk')
    .addHelpText('after', '\nExamples:\n  hostwire lab reboot demo-1            # then check what survives a reboot').argument('<host>')
    .addOption(new Option('-n, --name <lab>', 'lab name (default: from the host name)'))
    .action(async (host: string, o: { name?: string }) => {
      const r = await labReboot(host, { name: o.name });
      say(`${r.host}: ${r.state} after ${r.seconds.toFixed(1)} s${r.failedUnits.length ? ` (failed: ${r.failedUnits.join(', ')})` : ''}`);
    });
  return lab;
}
