import test from 'ava';
import { execFileSync } from 'node:child_process';
import { totalmem } from 'node:os';
import { gatherFacts } from '../../src/facts/gather.js';
import { LocalTransport } from '../../src/transports/local.js';
import { startSshd, type SshdFixture } from '../transports/sshd-fixture.js';
import { sshTo } from '../transports/helpers.js';

let sshd: SshdFixture;
test.before(async () => { sshd = await startSshd(); });
test.after.always(async () => { await sshd?.stop(); });

test('gathers facts over ssh in exactly one exec', async (t) => {
  const tr = sshTo(sshd);
  t.teardown(() => tr.close());
  const f = await gatherFacts(tr);
  t.is(tr.stats.execs, 1);
  t.is(tr.stats.connects, 1);
  t.deepEqual(f.hostwire_fact_errors, []);
  t.is(f.ansible_nodename, execFileSync('uname', ['-n'], { encoding: 'utf8' }).trim());
  t.is(f.ansible_kernel, execFileSync('uname', ['-r'], { encoding: 'utf8' }).trim());
  t.is(f.ansible_processor_nproc, Number(execFileSync('nproc', { encoding: 'utf8' })));
  t.is(f.ansible_memtotal_mb, Math.floor(totalmem() / 1024 / 1024));
  t.true(f.ansible_interfaces.includes('lo'));
  t.false(f.ansible_all_ipv4_addresses.includes('127.0.0.1'), 'loopback addresses left out, as Ansible');
  // The local transport sees the same machine.
  const local = await gatherFacts(new LocalTransport());
  t.deepEqual(local.ansible_interfaces, f.ansible_interfaces);
  t.deepEqual(local.ansible_default_ipv4, f.ansible_default_ipv4);
});
