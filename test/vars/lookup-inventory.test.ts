// The inventory_hostnames lookup (with_inventory_hostnames, kubespray's encrypt-at-rest tasks): host
// patterns over an inventory made from `groups`. Expected lists recorded from ansible-core 2.14's own
// plugin on this machine (lookup_loader.get('inventory_hostnames').run(terms, variables={'groups': G})).
import test from 'ava';
import { loopItems } from '../../src/engine/vars/index.js';
import { inventoryHostnamesLookup } from '../../src/engine/vars/lookup-inventory.js';

const groups = { all: ['n1', 'n2', 'n3', 'n4'], ungrouped: ['n4'], web: ['n1', 'n2'], db: ['n3', 'n2'], etcd: ['n3'] };

const RECORDED: [string[], string[]][] = [
  [['web'], ['n1', 'n2']],
  [['web:!n1'], ['n2']],
  [['all:&db'], ['n2', 'n3']],
  [['db', 'etcd'], ['n3', 'n2']],
  [['web,etcd'], ['n1', 'n2', 'n3']],
  [['nope'], []],
  [['n*'], ['n1', 'n2', 'n3', 'n4']],
  [['~n[13]'], ['n1', 'n3']],
  [['all:!web'], ['n3', 'n4']],
  [['web[1]'], ['n2']],
  [['db:web'], ['n3', 'n2', 'n1']],
];

for (const [terms, expected] of RECORDED) {
  test(`inventory_hostnames ${JSON.stringify(terms)}`, (t) => {
    t.deepEqual(inventoryHostnamesLookup(terms, {}, { groups }), expected);
  });
}

test('with_inventory_hostnames loops over the matched hosts', (t) => {
  t.deepEqual(loopItems({ loop: 'db:!n2', loopWith: 'inventory_hostnames', module: 'debug' }, { groups }), ['n3']);
});
