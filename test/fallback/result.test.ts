// Module output -> task result, as ansible-core 2.14's ActionBase does it; the expected values were
// read off ansible-core's _parse_returned_data / _filter_non_json_lines / _execute_module.
import test from 'ava';
import { filterNonJsonLines, moduleResult, toDiffEntries } from '../../src/fallback/result.js';

test('junk before the JSON is dropped silently, junk after it with a warning', (t) => {
  t.deepEqual(filterNonJsonLines('motd line\n{"a": 1}\n'), { json: '{"a": 1}', warnings: [] });
  const r = filterNonJsonLines('{"a":\n 1}\ntrailing junk\n');
  t.is(r.json, '{"a":\n 1}');
  t.deepEqual(r.warnings, ['Module invocation had junk after the JSON data: trailing junk\n']);
  t.throws(() => filterNonJsonLines('no json here'), { message: 'No start of json char found' });
  t.throws(() => filterNonJsonLines('{ never closed'), { message: 'No end of json char found' });
});

test('a result: failed from rc when missing, changed defaults to false, stdout/stderr lines, internal keys removed', (t) => {
  const r = moduleResult({ rc: 0, stderr: '', stdout: JSON.stringify({ rc: 2, stdout: 'a\nb\n', stderr: '', _ansible_parsed: true, _ansible_no_log: false, invocation: { module_args: { x: 1 } } }) });
  t.is(r.failed, true);
  t.is(r.changed, false);
  t.deepEqual(r.stdout_lines, ['a', 'b']);
  t.deepEqual(r.stderr_lines, []);
  t.false('_ansible_parsed' in r);
  t.deepEqual(r.warnings, ['Removed unexpected internal key in module return: _ansible_parsed = true']);
  t.deepEqual(r.invocation, { module_args: { x: 1 } });
  const ok = moduleResult({ rc: 0, stderr: '', stdout: '{"changed": true, "rc": 0, "warnings": []}' });
  t.like(ok, { changed: true, failed: false });
  t.false('warnings' in ok, 'an empty warnings list is dropped');
});

test('unparseable output is a MODULE FAILURE carrying the module output and its traceback', (t) => {
  const tb = 'Traceback (most recent call last):\n  File "x", line 1\nNameError: boom\n';
  const r = moduleResult({ rc: 1, stdout: '', stderr: tb });
  t.deepEqual(r, { changed: false, failed: true, msg: 'MODULE FAILURE\nSee stdout/stderr for the exact error', module_stdout: '', module_stderr: tb, rc: 1, exception: tb });
  t.like(moduleResult({ rc: 0, stdout: '[1, 2]', stderr: '' }), { failed: true, module_stdout: '[1, 2]' });
});

test('a results key that is not a list is renamed, as Ansible does', (t) => {
  const r = moduleResult({ rc: 0, stderr: '', stdout: '{"results": "text"}' });
  t.is(r.ansible_module_results, 'text');
  t.false('results' in r);
});

test('diffs: a dict or a list, text or structured before/after, headers, prepared', (t) => {
  t.deepEqual(toDiffEntries({ before: 'a\n', after: 'b\n', before_header: '/etc/x', after_header: '/etc/x' }), [{ header: '/etc/x -> /etc/x', before: 'a\n', after: 'b\n' }]);
  t.deepEqual(toDiffEntries([{ before: { k: 1 }, after: { k: 2 } }]), [{ header: undefined, before: '{\n    "k": 1\n}\n', after: '{\n    "k": 2\n}\n' }]);
  t.deepEqual(toDiffEntries({ prepared: 'plan text' }), [{ header: 'prepared', after: 'plan text' }]);
  t.deepEqual(toDiffEntries(undefined), []);
  const r = moduleResult({ rc: 0, stderr: '', stdout: '{"changed": true, "diff": {"before": "", "after": "x\\n"}}' });
  t.deepEqual(r.diff, [{ header: undefined, before: '', after: 'x\n' }]);
});

test('a __proto__ key in the module output is data: kept as a key, its failed/changed never the result\'s', (t) => {
  const proto = '"__proto__": {"failed": false, "changed": false, "x": 1}';
  const own = (v: object, k: string) => Object.prototype.hasOwnProperty.call(v, k);
  const ok = moduleResult({ rc: 0, stderr: '', stdout: `{${proto}}` });
  t.like(ok, { failed: false, changed: false });
  t.true(own(ok, '__proto__'));
  t.is(JSON.stringify(ok), '{"__proto__":{"failed":false,"changed":false,"x":1},"failed":false,"changed":false}');
  t.false('x' in ok);
  t.is(Object.getPrototypeOf(ok), Object.prototype);
  const failed = moduleResult({ rc: 1, stderr: '', stdout: `{"failed": true, "msg": "boom", ${proto}}` });
  t.like(failed, { failed: true, changed: false, msg: 'boom' });
  const changed = moduleResult({ rc: 0, stderr: '', stdout: `{"changed": true, "__proto__": {"failed": true, "changed": false}}` });
  t.like(changed, { failed: false, changed: true });
  const byRc = moduleResult({ rc: 0, stderr: '', stdout: `{"rc": 2, "__proto__": {"failed": false, "rc": 0}}` });
  t.is(byRc.failed, true, 'failed still follows the result\'s own rc');
});
