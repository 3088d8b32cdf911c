// Records the hostile host state's real outputs used by unit tests (run by hand, as root:
// `node dist/test/facts/record-hostile-fixtures.js`): one lab host (lab h6rec + the run's pid tag) gets an interface
// named "h6\x01x", a bridge `h6"q` holding a default route, an iptables comment with a newline and a
// chain named `h6"c`, and a NetworkManager connection named "h6\nnm"; then the facts batch and the
// module probes' commands run there and their raw outputs are stored.
import { writeFileSync } from 'node:fs';
import { labHost } from '../helpers/lab-host.js';
import { factsScript } from '../../src/facts/gather.js';
import { LIST_FIELDS } from '../../src/modules/nm_connection/parse.js';
import { testLabName } from '../helpers/lab-name.js';

/** Shell that makes the hostile state (shared with the lab test). */
export const HOSTILE_STATE = [
  `ip link add name "$(printf 'h6\\001x')" type bridge`,
  `ip link add name 'h6"q' type bridge && ip link set dev 'h6"q' up && ip addr add 192.0.2.7/24 dev 'h6"q'`,
  `ip route add default via 192.0.2.1 dev 'h6"q' metric 500`,
  `iptables -N H6 && iptables -A H6 -s 10.0.0.1 -m comment --comment "$(printf 'line1\\nline2')" -j ACCEPT`,
  `iptables -A H6 -s 10.0.0.2 -m comment --comment 'say "hi" \\ there' -j ACCEPT`,
  `iptables -N 'h6"c' && iptables -A 'h6"c' -j RETURN && iptables -A H6 -j 'h6"c'`,
  `nmcli connection add type bridge con-name "$(printf 'h6\\nnm')" ifname h6nm0 ipv4.method disabled ipv6.method disabled connection.autoconnect no >/dev/null`,
].join(' && ');

async function main(): Promise<void> {
  const host = await labHost(testLabName('h6rec'));
  try {
    await host.sh('systemctl start NetworkManager');
    await host.sh(HOSTILE_STATE);
    const at = `lab host ${host.state.hosts[0]!.name} (Debian 12 nspawn), hostile state of test/facts/record-hostile-fixtures.ts`;
    writeFileSync(new URL('../../../test/facts/fixtures/hostile-names.batch.txt', import.meta.url), (await host.transport.exec(factsScript())).stdout);
    const save = async (path: string, command: string) => {
      const r = await host.transport.exec(command);
      writeFileSync(new URL(`../../../src/modules/${path}.json`, import.meta.url), JSON.stringify({ host: at, command, rc: r.code, stdout: r.stdout, stderr: r.stderr }, null, 1) + '\n');
    };
    await save('iptables/cases/list-hostile', 'iptables -w -t filter -S H6');
    await save('iptables/cases/list-quote-chain', `iptables -w -t filter -S 'h6"c'`);
    await save('nm_connection/cases/list-hostile', `nmcli -t -e yes -f ${LIST_FIELDS} connection show`);
    await save('ip_link/cases/links-hostile', 'ip -j -d link show');
    await save('ip_route/cases/routes-hostile', 'ip -j -4 route show table all');
  } finally {
    await host.close();
  }
}

if (process.argv[1]?.endsWith('record-hostile-fixtures.js')) await main();
