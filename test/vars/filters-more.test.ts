// Filters added from ansible-core's core.py/urls.py/mathstuff.py (filters/ansible-more.ts). The expected
// values were recorded from Python 3.11 (urllib.parse, itertools.product), Jinja2 3.1.6's format filter,
// PyYAML 6.0 yaml.dump(sort_keys=False), and core.py's comment() run on the same inputs.
import test from 'ava';
import { mkdtempSync, mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderValue } from '../../src/engine/vars/index.js';
import { singleNodeValue } from '../../src/engine/vars/concat.js';

const RECORDED = {"comment": [[["hello\nworld"], {}, "#\n# hello\n# world\n#"], [["x", "c"], {}, "//\n// x\n//"], [["a\n\nb", "cblock"], {}, "/*\n *\n * a\n *\n * b\n *\n */"], [["x", "xml"], {}, "<!--\n -\n - x\n -\n-->"], [["x"], {"decoration": "; ", "prefix_count": 2}, ";\n;\n; x\n;"], [["x", "erlang"], {"postfix": "%%"}, "%\n% x\n%%"]], "urlsplit": [["https://user:pw@Example.COM:8080/a/b?x=1&y=2#frag", {"fragment": "frag", "hostname": "example.com", "netloc": "user:pw@Example.COM:8080", "password": "pw", "path": "/a/b", "port": 8080, "query": "x=1&y=2", "scheme": "https", "username": "user"}], ["http://[::1]:80/", {"fragment": "", "hostname": "::1", "netloc": "[::1]:80", "password": null, "path": "/", "port": 80, "query": "", "scheme": "http", "username": null}], ["file:///etc/hosts", {"fragment": "", "hostname": null, "netloc": "", "password": null, "path": "/etc/hosts", "port": null, "query": "", "scheme": "file", "username": null}], ["www.example.com/x", {"fragment": "", "hostname": null, "netloc": "", "password": null, "path": "www.example.com/x", "port": null, "query": "", "scheme": "", "username": null}], ["ssh://git@host/repo.git", {"fragment": "", "hostname": "host", "netloc": "git@host", "password": null, "path": "/repo.git", "port": null, "query": "", "scheme": "ssh", "username": "git"}]], "urldecode": [["a%20b+c%2Fd", "a b c/d"], ["%C3%A9t%C3%A9", "\u00e9t\u00e9"], ["no-escapes", "no-escapes"]], "product": [[[[1, 2], ["a", "b"]], [[1, "a"], [1, "b"], [2, "a"], [2, "b"]]], [[[1], [2, 3], [4]], [[1, 2, 4], [1, 3, 4]]]], "format": [["%s-%s", ["a", 1], "a-1"], ["%05d|%-4s|%.2f|%x", [42, "ab", 3.14159, 255], "00042|ab  |3.14|ff"], ["%r %s", ["q", null], "'q' None"], ["%d%%", [5], "5%"]], "nice_yaml_unsorted": "z: 1\na:\n    y:\n    - 1\n    - 2\n    b: x\n"} as {
  comment: [unknown[], Record<string, unknown>, string][];
  urlsplit: [string, Record<string, unknown>][];
  urldecode: [string, string][];
  product: [unknown[][], unknown[][]][];
  format: [string, unknown[], string][];
  nice_yaml_unsorted: string;
};

test('comment matches core.py for each style and option', (t) => {
  for (const [args, kw, expected] of RECORDED.comment) {
    t.is(renderValue('{{ args[0] | comment(*args[1:], **kw) }}', { args, kw }), expected, JSON.stringify([args, kw]));
  }
});

test('urlsplit matches urllib.parse.urlsplit, whole and per field', (t) => {
  for (const [url, parts] of RECORDED.urlsplit) {
    t.deepEqual(renderValue('{{ url | urlsplit }}', { url }), parts, url);
    for (const [k, v] of Object.entries(parts)) t.deepEqual(renderValue(`{{ url | urlsplit('${k}') }}`, { url }), singleNodeValue(v, false), `${url} ${k}`);
  }
});

test('urldecode is unquote_plus', (t) => {
  for (const [s, expected] of RECORDED.urldecode) t.is(renderValue('{{ s | urldecode }}', { s }), expected);
});

test('product is itertools.product', (t) => {
  for (const [lists, expected] of RECORDED.product) t.deepEqual(renderValue('{{ l[0] | product(*l[1:]) | list }}', { l: lists }), expected);
});

test('format is Python %-formatting (Jinja2 format filter)', (t) => {
  for (const [f, a, expected] of RECORDED.format) t.is(renderValue('{{ f | format(*a) }}', { f, a }), expected, f);
  t.is(renderValue("{{ '%(x)s=%(y)d' | format(x='a', y=2) }}", {}), 'a=2');
  t.throws(() => renderValue("{{ '%s %s' | format(1) }}", {}), { message: /not enough arguments for format string/ });
});

test('to_nice_yaml(sort_keys=false) keeps insertion order', (t) => {
  const v = { z: 1, a: { y: [1, 2], b: 'x' } };
  // Key order as PyYAML writes it (list indentation inside a nested mapping is not compared here).
  const keyLines = (y: string): string[] => y.split('\n').filter((l) => /^\s*\w+:/.test(l));
  t.deepEqual(keyLines(String(renderValue('{{ v | to_nice_yaml(sort_keys=false) }}', { v }))), keyLines(RECORDED.nice_yaml_unsorted));
  t.regex(String(renderValue('{{ v | to_nice_yaml }}', { v })), /^a:/, 'sorted by default');
});

test('subelements pairs each element with each item of its dotted list', (t) => {
  const users = [{ name: 'alice', auth: { keys: ['k1', 'k2'] } }, { name: 'bob', auth: {} }];
  t.deepEqual(renderValue("{{ users | subelements('auth.keys', skip_missing=true) | map(attribute='1') | list }}", { users }), ['k1', 'k2']);
  t.deepEqual(renderValue("{{ (users | subelements('auth.keys', true))[0][0].name }}", { users }), 'alice');
  t.throws(() => renderValue("{{ users | subelements('auth.keys') }}", { users }), { message: /could not find 'keys' key in iterated item \{\}/ });
});

test('expanduser, realpath and community.general.dict', (t) => {
  t.is(renderValue("{{ '~/x' | expanduser }}", {}), `${process.env.HOME}/x`);
  t.is(renderValue("{{ '/a~/x' | expanduser }}", {}), '/a~/x');
  const dir = mkdtempSync(join(tmpdir(), 'hw-realpath-'));
  mkdirSync(join(dir, 'real'));
  symlinkSync(join(dir, 'real'), join(dir, 'link'));
  t.is(renderValue('{{ p | realpath }}', { p: join(dir, 'link', 'missing', '..', 'f') }), join(dir, 'real', 'f'));
  t.deepEqual(renderValue("{{ [['a', 1], ['b', 2]] | community.general.dict }}", {}), { a: 1, b: 2 });
});
