// Every module carries its reference text (Module.doc, kept in the folder's doc.ts) and it documents
// exactly the arguments its schema accepts, so the printed reference cannot drift from the code.
import test from 'ava';
import { parse as parseYaml } from 'yaml';
import { getModule, moduleNames } from '../../src/modules/all.js';
import { argNames } from '../../src/modules/kit/arg-names.js';

test('every module has a description, an example and check/diff support', (t) => {
  t.true(moduleNames().length >= 31);
  for (const name of moduleNames()) {
    const d = getModule(name)!.doc;
    t.true(d.description.length >= 60, `${name}: a one-paragraph description`);
    t.true(['full', 'partial', 'none'].includes(d.check) && ['full', 'partial', 'none'].includes(d.diff), name);
    for (const [arg, text] of Object.entries(d.args)) t.true(text.trim().length > 3, `${name}.${arg} has a description`);
  }
});

test('each module documents exactly the arguments its schema accepts', (t) => {
  for (const name of moduleNames()) {
    const m = getModule(name)!;
    t.deepEqual(Object.keys(m.doc.args).sort(), argNames(m.args).sort(), `${name}: documented vs accepted arguments`);
  }
});

test('each example is a task of that module whose arguments its schema accepts', (t) => {
  for (const name of moduleNames()) {
    const m = getModule(name)!;
    const tasks = parseYaml(m.doc.example) as Record<string, unknown>[];
    t.true(Array.isArray(tasks) && tasks.length === 1, `${name}: the example is one task`);
    const task = tasks[0];
    t.true(name in task, `${name}: the example uses the module`);
    const value = task[name];
    const args = typeof value === 'string' ? { _raw_params: value, ...(task.args as object | undefined) } : { ...(value as object), ...(task.args as object | undefined) };
    if (name === 'set_fact') continue; // free-form: any key is a fact
    const parsed = m.args.safeParse(args);
    t.true(parsed.success, `${name}: example args ${JSON.stringify(args)}: ${parsed.success ? '' : parsed.error.message}`);
  }
});

test('argNames looks through the wrappers modules put around their object', (t) => {
  t.deepEqual(argNames(getModule('lineinfile')!.args).slice(0, 2), ['path', 'line']);
  t.deepEqual(argNames(getModule('debug')!.args), ['msg', 'var', 'verbosity']);
  t.deepEqual(argNames(getModule('set_fact')!.args), []);
});
