// debug and assert evaluate through the context the runner lends them (ModuleContext.expressions),
// not by importing the engine's templating (modules stand below the engine: layering test).
import test from 'ava';
import { taskExpressions } from '../../src/engine/vars/index.js';
import { assertModule, debugModule } from '../../src/modules/debug/debug.js';
import type { ModuleContext } from '../../src/modules/types.js';

const ctx = (vars: Record<string, unknown>, withExpressions = true) =>
  ({ host: 'h1', vars, ...(withExpressions ? { expressions: taskExpressions(vars) } : {}) }) as unknown as ModuleContext;

test('debug var: an expression\'s value, Ansible\'s marker for an undefined variable', async (t) => {
  const vars = { word: 'hello', r: { stdout_lines: ['a', 'b'] } };
  t.is((await debugModule.run!({ var: 'word | upper', verbosity: 0 }, ctx(vars)))['word | upper'], 'HELLO');
  t.deepEqual((await debugModule.run!({ var: 'r.stdout_lines', verbosity: 0 }, ctx(vars)))['r.stdout_lines'], ['a', 'b']);
  t.is((await debugModule.run!({ var: 'nothing_here', verbosity: 0 }, ctx(vars))).nothing_here, 'VARIABLE IS NOT DEFINED!');
  // Other template errors still fail the task.
  await t.throwsAsync(debugModule.run!({ var: 'word |', verbosity: 0 }, ctx(vars)));
});

test('assert that: each condition with the task\'s variables', async (t) => {
  const vars = { n: 3 };
  t.like(await assertModule.run!({ that: ['n > 1', 'n < 5'], quiet: false }, ctx(vars)), { changed: false, msg: 'All assertions passed' });
  t.like(await assertModule.run!({ that: ['n > 1', 'n > 5'], quiet: false }, ctx(vars)), { failed: true, assertion: 'n > 5', evaluated_to: false });
});

test('a context without expressions is refused with a clear error, not evaluated some other way', async (t) => {
  await t.throwsAsync(debugModule.run!({ var: 'x', verbosity: 0 }, ctx({ x: 1 }, false)), { message: /debug needs the task's expressions/ });
  await t.throwsAsync(assertModule.run!({ that: 'true', quiet: false }, ctx({}, false)), { message: /assert needs the task's expressions/ });
});
