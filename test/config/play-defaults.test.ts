// ansible.cfg's become* and gathering reach plays that do not set them, as Ansible's DEFAULT_BECOME*
// and DEFAULT_GATHERING do; a play's own keyword wins. Connection values sit below inventory vars.
import test from 'ava';
import { applyPlayDefaults, withConnectionDefaults } from '../../src/engine/runner/config-defaults.js';
import { connectionSettings } from '../../src/engine/inventory/index.js';
import type { PlayDef } from '../../src/engine/playbook/types.js';
import type { HostState } from '../../src/engine/runner/host-state.js';

const play = (p: Partial<PlayDef>) => ({ gatherFacts: true, gatherFactsSet: false, ...p }) as PlayDef;
const host = (facts: Record<string, unknown>) => ({ facts }) as unknown as HostState;

test('become and become_user from the config only where the play is silent', (t) => {
  const silent = play({});
  applyPlayDefaults(silent, { become: true, becomeUser: 'admin' }, []);
  t.is(silent.become, true);
  t.is(silent.becomeUser, 'admin');
  const own = play({ become: false, becomeUser: 'app' });
  applyPlayDefaults(own, { become: true, becomeUser: 'admin' }, []);
  t.is(own.become, false);
  t.is(own.becomeUser, 'app');
});

test('gathering: implicit gathers, explicit only when the play says gather_facts, smart not again once a host has facts', (t) => {
  const implicit = play({});
  applyPlayDefaults(implicit, { gathering: 'implicit' }, [host({})]);
  t.true(implicit.gatherFacts);
  const explicit = play({});
  applyPlayDefaults(explicit, { gathering: 'explicit' }, [host({})]);
  t.false(explicit.gatherFacts);
  const explicitAsked = play({ gatherFacts: true, gatherFactsSet: true });
  applyPlayDefaults(explicitAsked, { gathering: 'explicit' }, [host({})]);
  t.true(explicitAsked.gatherFacts);
  const smartFirst = play({});
  applyPlayDefaults(smartFirst, { gathering: 'smart' }, [host({})]);
  t.true(smartFirst.gatherFacts);
  const smartAgain = play({});
  applyPlayDefaults(smartAgain, { gathering: 'smart' }, [host({ ansible_hostname: 'a' })]);
  t.false(smartAgain.gatherFacts);
  const smartOff = play({ gatherFacts: false, gatherFactsSet: true });
  applyPlayDefaults(smartOff, { gathering: 'smart' }, [host({})]);
  t.false(smartOff.gatherFacts);
});

test('remote_user, private_key_file and timeout sit below the inventory\'s ansible_* vars', (t) => {
  const defaults = { remoteUser: 'cfguser', privateKeyFile: '/k/id', timeoutSec: 7 };
  const fromCfg = connectionSettings(withConnectionDefaults(defaults, { inventory_hostname: 'a' }));
  t.is(fromCfg.user, 'cfguser');
  t.is(fromCfg.privateKeyFile, '/k/id');
  t.is(fromCfg.connectTimeoutMs, 7000);
  // Ansible's older names count too: ansible_ssh_user beats remote_user.
  const fromInv = connectionSettings(withConnectionDefaults(defaults, { inventory_hostname: 'a', ansible_ssh_user: 'inv', ansible_ssh_private_key_file: '/inv/id', ansible_ssh_timeout: 3 }));
  t.is(fromInv.user, 'inv');
  t.is(fromInv.privateKeyFile, '/inv/id');
  t.is(fromInv.connectTimeoutMs, 3000);
});
