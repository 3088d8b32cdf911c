// wait_v6 (the apply's wait for SLAAC/DHCPv6 on the bridge), run by dash with ip/networkctl/date stubbed: with
// systemd-networkd hung (seen on a VM host: 100% CPU, killed by its watchdog; each networkctl call waited on it)
// the wait is bounded by the clock (60 s), not by its rounds - before, 60 rounds took 8.5 min there and the
// rollback came that late - and every networkctl call is bounded (timeout 5).
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const NETWORKD = readFileSync(new URL('../../../src/modules/ovs_gateway/script/configure-ovs-networkd.sh', import.meta.url), 'utf8');

/** Runs wait_v6 br-ex with the clock advancing `step` s a reading; returns its exit code, what it failed with, and the log. */
function waitV6(t: { teardown(f: () => void): void }, step: number): { rc: string; failed: string; log: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-wait-v6-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'clock'), '1000\n');
  const stubs = [
    'log() { echo "$*" >>"$LOG"; }',
    `date() { n=$(command cat "$CLK"); echo $((n + ${step})) >"$CLK"; echo "$n"; }`,
    'ip() { return 0; }', 'sleep() { :; }', 'journalctl() { echo "br-ex: Failed"; }',
    'timeout() { log timeout "$1"; shift; "$@"; }',
    'networkctl() { log networkctl "$@"; [ "$1" != list ] || echo "7 br-ex ether routable failed"; }',
    'fail() { echo "$*" >"$FAILED"; }'].join('\n');
  const said = execFileSync('dash', ['-c', `${NETWORKD}\n${stubs}\nLOG=${dir}/log CLK=${dir}/clock FAILED=${dir}/failed
    METHOD6=auto TOKENS6='::cfaa:e634:ded6:e435' DEFAULT6= METRIC=48; wait_v6 br-ex; echo "$?" >${dir}/rc`],
  { encoding: 'utf8', env: { PATH: process.env.PATH } });
  const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');
  const rc = `rc=${read('rc').trim()}`;
  const failed = read('failed').trim();
  const log = [...read('log').split('\n').filter(Boolean), ...said.split('\n').filter(Boolean).map((l) => `said: ${l}`)];
  return { rc, failed, log };
}

test('with networkd hung, the wait for SLAAC on the bridge ends by the clock (60 s) and fails naming the addresses', (t) => {
  const r = waitV6(t, 20); // every round (a hung networkctl) takes 20 s
  t.is(r.rc, 'rc=1');
  t.is(r.failed, 'SLAAC/DHCPv6 on br-ex gave not the addresses ::cfaa:e634:ded6:e435 in 60 s (have: )');
  const lists = r.log.filter((l) => l.startsWith('networkctl list'));
  t.true(lists.length <= 3, `rounds bounded by the clock, not 60 of them:\n${r.log.join('\n')}`);
  t.true(r.log.filter((l) => l === 'networkctl reconfigure -- br-ex').length <= 3);
});

test('every networkctl call the wait makes is bounded (timeout 5)', (t) => {
  const r = waitV6(t, 1);
  t.is(r.rc, 'rc=1');
  const calls = r.log.filter((l) => l.startsWith('networkctl'));
  t.true(calls.length > 0);
  t.is(r.log.filter((l) => l === 'timeout 5').length, calls.length, r.log.join('\n'));
  t.is(r.log.filter((l) => l === 'networkctl reconfigure -- br-ex').length, 3, 'reconfigured 3 times at most');
});
