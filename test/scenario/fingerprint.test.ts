// The check step's fingerprint ignores what the kernel changes by itself (DAD, carrier, lease clocks).
import test from 'ava';
import { normalise } from '../../src/scenario/fingerprint.js';

const addr = (tentative: boolean, life: number, oper: string) => JSON.stringify([{
  ifname: 'cni0', operstate: oper, addr_info: [
    { family: 'inet', local: '10.244.1.1', prefixlen: 24, scope: 'global', valid_life_time: 4294967295 },
    { family: 'inet6', local: 'fe80::1', prefixlen: 64, scope: 'link', ...(tentative ? { tentative: true } : {}), valid_life_time: life },
    { family: 'inet', local: '10.1.2.3', prefixlen: 24, scope: 'global', dynamic: true, valid_life_time: life, preferred_life_time: life },
  ],
}]);

test('addr: DAD, carrier and lease clocks are not state; addresses are', (t) => {
  t.is(normalise('addr', addr(true, 3600, 'DOWN')), normalise('addr', addr(false, 3590, 'UP')));
  const moved = addr(false, 3590, 'UP').replace('10.244.1.1', '10.244.9.1');
  t.not(normalise('addr', addr(true, 3600, 'DOWN')), normalise('addr', moved));
});

test('route: kernel IPv6 link-local routes and linkdown are dropped; real routes are kept', (t) => {
  const before = JSON.stringify([{ dst: '10.244.1.0/24', dev: 'cni0', flags: ['linkdown'] }, { type: 'local', dst: 'fe80::1', table: 'local' }]);
  const after = JSON.stringify([{ dst: '10.244.1.0/24', dev: 'cni0', flags: [] }]);
  t.is(normalise('route', before), normalise('route', after));
  t.not(normalise('route', after), normalise('route', JSON.stringify([{ dst: '10.244.2.0/24', dev: 'cni0', flags: [] }])));
  t.is(normalise('etc', 'x'), 'x');
});
