// The key=value shorthand split as ansible-core 2.14's split_args/parse_kv split it: whitespace ends a value
// only outside quotes and outside Jinja blocks, whose openings are counted (a block may nest a quoted '{{ }}').
import test from 'ava';
import { parseKeyValueArgs } from '../../src/engine/playbook/kv-args.js';

test('values: plain, quoted with spaces, Jinja with spaces and nested blocks', (t) => {
  t.deepEqual(parseKeyValueArgs(`a=1 b="x y" c={{ d | default('e f') }} g='h i'`), { a: '1', b: 'x y', c: "{{ d | default('e f') }}", g: 'h i' });
  t.deepEqual(parseKeyValueArgs(`crt={{ lookup('env', '{{info.component}}' + '_crt') }} next=1`), { crt: "{{ lookup('env', '{{info.component}}' + '_crt') }}", next: '1' });
  t.deepEqual(parseKeyValueArgs('msg={% if x %}a{% endif %} y=2'), { msg: '{% if x %}a{% endif %}', y: '2' });
  // An alias with a dash (systemd's daemon-reload), as openshift-ansible 3.11 writes it.
  t.deepEqual(parseKeyValueArgs('name=x daemon-reload=yes state=restarted'), { name: 'x', 'daemon-reload': 'yes', state: 'restarted' });
});

test('text that is no key=value pair is refused naming it', (t) => {
  t.throws(() => parseKeyValueArgs('a=1 oops'), { message: /expected key=value arguments, got 'oops'/ });
});
