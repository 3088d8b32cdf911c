import test from 'ava';
import { readFileSync } from 'node:fs';
import { parseWait, portCondition, waitScript } from '../../src/modules/wait_for/script.js';
import { getModule } from '../../src/modules/all.js';

const load = (name: string) => JSON.parse(readFileSync(new URL(`../../../src/modules/wait_for/cases/${name}.json`, import.meta.url), 'utf8'));

test('reads the recorded outcome of the on-host loop', (t) => {
  t.deepEqual(parseWait(load('port-ready').stdout), { ready: true, elapsed: 0 });
  t.deepEqual(parseWait(load('port-timeout').stdout), { ready: false, elapsed: 1 });
  t.deepEqual(parseWait(load('path-ready').stdout), { ready: true, elapsed: 0 });
  t.is(parseWait('bash: something broke\n'), undefined);
});

test('the script is one loop with a deadline (the recorded command is what it builds)', (t) => {
  const s = waitScript({ condition: portCondition('127.0.0.1', 22, true), timeout: 5, delay: 0, sleep: 1 });
  t.is(s, load('port-ready').command);
  t.regex(s, /deadline=\$\(\(start \+ 0 \+ 5\)\)/);
  t.regex(portCondition('10.0.0.1', 80, false), /^! timeout 2 bash -c/);
});

test('schema: exactly one of port/path/command, defaults like Ansible', (t) => {
  const m = getModule('wait_for')!;
  t.like(m.args.parse({ port: 22 }), { host: '127.0.0.1', timeout: 300, delay: 0, sleep: 1, state: 'started' });
  t.false(m.args.safeParse({ port: 22, path: '/x' }).success);
  t.false(m.args.safeParse({}).success);
  t.false(m.args.safeParse({ port: 22, search_regex: 'x' }).success);
});
