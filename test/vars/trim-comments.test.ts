// trim_blocks (Ansible's template setting) drops the newline after a comment as after a block tag:
// expected texts recorded from Jinja2 3.1 (Environment(trim_blocks=True)). geerlingguy.firewall's
// firewall.bash.j2 has `{# ... #}` lines: rendered with an extra blank line each before this.
import test from 'ava';
import { renderString } from '../../src/engine/vars/index.js';

const RECORDED_JINJA2: [string, string][] = [
  ['a\n{# c #}\nb\n', 'a\nb\n'],
  ['a\n{# c #}\r\nb\n', 'a\nb\n'],
  ['a\n{# c #}\n\nb\n', 'a\n\nb\n'],
  ['a {# c #} b\n', 'a  b\n'],
  ['{# only #}\n{% for x in xs %}\n{{ x }}\n{% endfor %}\n', '1\n2\n'],
  ['a\n{#- c #}\nb\n', 'ab\n'],
  ['a\n{# c -#}\n\nb\n', 'a\nb\n'],
];

test('a comment drops the newline after it, as a block tag does (Jinja2 trim_blocks)', (t) => {
  for (const [tpl, want] of RECORDED_JINJA2) t.is(renderString(tpl, { xs: [1, 2] }), want, JSON.stringify(tpl));
});
