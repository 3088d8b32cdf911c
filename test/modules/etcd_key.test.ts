import test from 'ava';
import { etcdKeyModule, planEtcd, readEtcd, type EtcdArgs } from '../../src/modules/etcd_key/etcd_key.js';
import { parseGet, stableJson } from '../../src/modules/etcd_key/parse.js';
import { loadCase } from './net-cases.js';

const args = (a: Record<string, unknown>) => etcdKeyModule.args.parse(a) as EtcdArgs;

test('base64 values from -w json; a missing key has no kvs', (t) => {
  t.is(parseGet(loadCase('etcd_key', 'get-json').stdout), '{"b":1,"a":[1,2]}');
  t.is(parseGet(loadCase('etcd_key', 'get-text').stdout), 'line1\nline2:x');
  t.is(parseGet(loadCase('etcd_key', 'get-missing').stdout), undefined);
  t.is(stableJson({ b: 1, a: { d: [1, { z: 0, y: 1 }], c: null } }), '{"a":{"c":null,"d":[1,{"y":1,"z":0}]},"b":1}');
});

test('recorded probe: JSON compared as data; create never overwrites; absent deletes', (t) => {
  const s = readEtcd(loadCase('etcd_key', 'probe-json').stdout, args({ key: '/hw/cfg', state: 'absent' }));
  t.is(s.value, '{"a":"-x","b":1}');
  t.deepEqual(planEtcd(s, args({ key: '/hw/cfg', value: { b: 1, a: '-x' } })), []);
  t.deepEqual(planEtcd(s, args({ key: '/hw/cfg', value: 'other', mode: 'create' })), []);
  const [c] = planEtcd(s, args({ key: '/hw/cfg', value: { a: 'y' } }));
  t.is(c.run[0], `printf '%s' '{"a":"y"}' | ETCDCTL_API=3 etcdctl --endpoints=http://127.0.0.1:2379 --dial-timeout=2s --command-timeout=5s put /hw/cfg >/dev/null`);
  t.regex(planEtcd(s, args({ key: '/hw/cfg', state: 'absent', cacert: '/ca', cert: '/c', key_file: '/k' }))[0].run[0], /--cacert=\/ca --cert=\/c --key=\/k del \/hw\/cfg/);
  const missing = readEtcd(loadCase('etcd_key', 'probe-missing').stdout, args({ key: '/hw/none', state: 'absent' }));
  t.deepEqual(planEtcd(missing, args({ key: '/hw/none', state: 'absent' })), []);
  t.is(planEtcd(missing, args({ key: '/hw/none', value: 'v', mode: 'create' }))[0].summary, 'create etcd key /hw/none');
});

test('unreachable etcd (recorded) is a clear failure; under --check it is drift, shown, never written', (t) => {
  const a = args({ key: '/hw/cfg', value: { b: 1 }, mode: 'create', endpoints: 'http://127.0.0.1:2399' });
  const s = readEtcd(loadCase('etcd_key', 'probe-unreachable').stdout, a);
  t.deepEqual(s, { unreachable: 'etcd at http://127.0.0.1:2399 is not reachable' });
  t.throws(() => planEtcd(s, a), { message: 'etcdctl get /hw/cfg failed: etcd at http://127.0.0.1:2399 is not reachable' });
  t.deepEqual(planEtcd(s, a, true), [{
    summary: 'etcd at http://127.0.0.1:2399 is not reachable: key /hw/cfg cannot be read; it is written once etcd answers',
    before: '(unknown: etcd is not reachable)\n', after: '{"b":1}\n', run: [],
  }]);
  t.is(planEtcd(s, args({ key: '/hw/cfg', state: 'absent' }), true)[0].after, '(absent)\n');
  t.false(etcdKeyModule.args.safeParse({ key: 'k' }).success, 'present needs a value');
});
