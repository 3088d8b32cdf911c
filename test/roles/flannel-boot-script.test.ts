// The flannel boot script splices peer routes read from etcd leases (host data) into a shell script:
// every spliced value is shell-quoted, so a lease value can never run as a command at boot.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { renderString } from '../../src/engine/vars/render.js';

const tasks = parse(readFileSync('roles/flannel_hostgw/tasks/persist.yml', 'utf8')) as { copy?: { content: string } }[];
const script = tasks.find((t) => t.copy?.content.startsWith('#!/bin/sh'))!.copy!.content;
const vars = {
  flannel_hostgw_boot_unit: 'hostwire-flannel-routes.service',
  flannel_hostgw_forward_rules: true,
  flannel_hostgw_ip_masq: true,
  flannel_hostgw_network: '10.244.0.0/16',
};

test('valid leases render exactly as before (no quotes needed, so the file does not change)', (t) => {
  const out = renderString(script, { ...vars, flannel_hostgw_routes: [{ dst: '10.244.2.0/24', via: '10.1.0.12', dev: 'eth0' }] });
  t.true(out.includes('ip route replace 10.244.2.0/24 via 10.1.0.12 dev eth0 || rc=1\n'));
  t.true(out.includes('rule filter FORWARD -s 10.244.0.0/16 -m comment'));
});

test('a hostile lease value stays one quoted word', (t) => {
  const out = renderString(script, { ...vars, flannel_hostgw_routes: [{ dst: '10.244.2.0/24; touch /tmp/pwned', via: "1.2.3.4'$(id)", dev: 'eth0 `id`' }] });
  t.true(out.includes(`ip route replace '10.244.2.0/24; touch /tmp/pwned' via '1.2.3.4'"'"'$(id)' dev 'eth0 \`id\`' || rc=1`));
  t.false(/replace 10\.244\.2\.0\/24; touch/.test(out));
});
