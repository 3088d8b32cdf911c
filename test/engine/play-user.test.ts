// A play's `user:` is its remote_user (ansible-core 2.14's Play.preprocess_data); with remote_user too it
// is Ansible's error. openshift-ansible 3.11's adhoc/create_pv play uses it.
import test from 'ava';
import { localWorkspace } from './helpers.js';
import { loadPlaybook } from '../../src/engine/playbook/load-playbook.js';
import { isKnownModule } from '../../src/modules/all.js';

test("a play's user: is its remote_user; both set is refused with Ansible's words", async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const pb = await loadPlaybook(ws.write('a.yml', '- hosts: all\n  user: deploy\n  tasks: []\n'), { knownModule: isKnownModule });
  t.is(pb.plays[0]!.remoteUser, 'deploy');
  const err = await loadPlaybook(ws.write('b.yml', '- hosts: all\n  user: a\n  remote_user: b\n  tasks: []\n'), { knownModule: isKnownModule }).catch((e: Error) => e);
  t.regex(String((err as Error).message), /b\.yml:2:3: both 'user' and 'remote_user' are set for this play/);
});
