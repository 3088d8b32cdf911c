// YAML read as PyYAML reads it (yaml-pyyaml.ts). Expected values recorded from PyYAML 6.0.3
// yaml.safe_load (Ansible's loader is SafeLoader-based); floats and dates are tagged since JSON cannot
// tell 1.0 from 1 or hold inf. Dates differ on purpose: PyYAML builds a date object, hostwire keeps the
// text written (which is what Ansible passes to a module or prints for it).
import test from 'ava';
import { BadInputError } from '../../src/errors.js';
import { parseYaml } from '../../src/engine/yaml-source.js';
import { readYaml } from '../../src/engine/inventory/yaml-source.js';

type Recorded = null | boolean | number | string | Recorded[] | { [k: string]: Recorded };

const RECORDED_PYYAML: [string, Recorded][] = [
  ["pkgs: [\"{%\nif x %}a{% endif %}\"]\n", {"pkgs": ["{% if x %}a{% endif %}"]}],
  ["a: [ \"x\n  y\" ]\n", {"a": ["x y"]}],
  ["a: ['x\n  y']\n", {"a": ["x y"]}],
  ["a: {b: \"x\ny\"}\n", {"a": {"b": "x y"}}],
  ["b: [x,\ny]\n", {"b": ["x", "y"]}],
  ["c: \"a\nb\"\n", {"c": "a b"}],
  ["c: 'it''s\nok'\n", {"c": "it's ok"}],
  ["- name: t\n  vars:\n    l: [\"a\",\n\"b\"]\n    m: 1\n", [{"name": "t", "vars": {"l": ["a", "b"], "m": 1}}]],
  ["d: |\n  keep \"quote\n  [x\ne: [1,\n2]\n", {"d": "keep \"quote\n[x\n", "e": [1, 2]}],
  ["esc: \"a\\\nb\"\n", {"esc": "ab"}],
  ["m: 0644", {"m": 420}],
  ["m: 0o644", {"m": "0o644"}],
  ["m: 0x1F", {"m": 31}],
  ["m: 0b101", {"m": 5}],
  ["m: 09", {"m": "09"}],
  ["m: 010", {"m": 8}],
  ["m: +12", {"m": 12}],
  ["m: 1_000", {"m": 1000}],
  ["m: 12:30", {"m": 750}],
  ["m: 1:20:30", {"m": 4830}],
  ["m: 1e3", {"m": "1e3"}],
  ["m: 1.0e+3", {"m": {"float": 1000.0}}],
  ["m: 1.0e3", {"m": "1.0e3"}],
  ["m: 1.5", {"m": {"float": 1.5}}],
  ["m: .5", {"m": {"float": 0.5}}],
  ["m: 1.", {"m": {"float": 1.0}}],
  ["m: .", {"m": "."}],
  ["m: -.inf", {"m": {"float": "-inf"}}],
  ["m: ~", {"m": null}],
  ["m: null", {"m": null}],
  ["m: Null", {"m": null}],
  ["m: NULL", {"m": null}],
  ["m: y", {"m": "y"}],
  ["m: n", {"m": "n"}],
  ["m: Yes", {"m": true}],
  ["m: NO", {"m": false}],
  ["m: oN", {"m": "oN"}],
  ["m: on", {"m": true}],
  ["m: Off", {"m": false}],
  ["m: TRUE", {"m": true}],
  ["m: tRUE", {"m": "tRUE"}],
  ["m: 2001-12-14", {"m": {"date": "2001-12-14"}}],
  ["m: 2001-12-14 21:59:43.10", {"m": {"date": "2001-12-14 21:59:43.100000"}}],
  ["a: 1\na: 2", {"a": 2}],
  ["base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3", {"base": {"x": 1, "y": 2}, "m": {"x": 1, "y": 3}}],
];

/** The recorded PyYAML value as hostwire represents it. */
function expected(v: Recorded, source: string): unknown {
  if (Array.isArray(v)) return v.map((x) => expected(x, source));
  if (v && typeof v === 'object') {
    if ('float' in v) return v.float === 'inf' ? Infinity : v.float === '-inf' ? -Infinity : v.float;
    if ('date' in v) return source.slice(source.indexOf(': ') + 2);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expected(x, source)]));
  }
  return v;
}

for (const [source, value] of RECORDED_PYYAML) {
  test(`loads as PyYAML does: ${JSON.stringify(source)}`, (t) => {
    t.deepEqual(parseYaml(source, 'vars.yml'), expected(value, source));
  });
}

test('the inventory reader accepts the same continuation lines', (t) => {
  const src = readYaml('all:\n  vars:\n    l: ["a",\n"b"]\n', 'hosts.yml');
  t.deepEqual(src.doc.toJS(), { all: { vars: { l: ['a', 'b'] } } });
  t.is(src.lines.linePos(src.doc.contents!.range![0]).line, 1);
});

test('YAML PyYAML refuses still fails, at the original position', (t) => {
  const e = t.throws(() => parseYaml('a: [1, 2\nb: 3\n', 'vars.yml'), { instanceOf: BadInputError });
  t.regex(e!.message, /^vars\.yml:[12]:\d+: YAML syntax error/, 'the failed retry does not move the line');
  t.throws(() => parseYaml('a: "open\n', 'vars.yml'), { message: /^vars\.yml:\d+:\d+: YAML syntax error: Missing closing "quote/ });
});
