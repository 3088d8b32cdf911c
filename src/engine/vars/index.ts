// Jinja2-compatible templating for hostwire, on nunjucks: Ansible's filters, tests, native values,
// omit, strict undefined variables, lazy variables and precedence merging.
//
// Known differences from Ansible/Jinja2 (documented, not bugs to chase):
// - `d.items` vs `d['items']`: a dict key wins over the Python method of the same name for both forms.
// - `{% for k, v in dict %}` iterates key/value pairs (a nunjucks extension); Jinja needs `dict.items()`.
// - Chained comparisons (`1 < x < 3`) keep JavaScript semantics and do not raise on undefined operands.
// - Integers and floats are one JavaScript number: a float is told from the syntax (`2.0`, `/`, `| float`,
//   arithmetic with a float or a non-integer variable: float-kinds.ts), but a whole float held in a variable
//   (`{% set h = 4 / 2 %}{{ h }}`, YAML's `2.0`) prints "2" where Python prints "2.0".
// - Native rendering keeps a string as a string (`"{{ '5' }}"` is '5'); Ansible's jinja2_native makes it 5.
// - `omit` inside a list is dropped from the list (Ansible leaves the placeholder string there).
// - to_yaml/to_nice_yaml produce equivalent YAML, not PyYAML's exact spacing.
// - `{% macro %}` call blocks with caller args are not provided; lookups are those of lookups.ts.
export type { Vars } from './render.js';
export { renderValue, renderString, evalCondition, evalExpression, isTemplated } from './render.js';
export { taskExpressions } from './task-expressions.js';
export { loopItems, loopItemsAhead } from './loop-items.js';
export { referencedVars } from './referenced.js';
export { mergeVars, mergeTrustedLayers } from './merge.js';
export { templatedVars } from './lazy.js';
export { UnsafeText, withUnsafeTag } from './unsafe.js';
export { readsSecret } from './taint.js';
export { compileCount } from './environment.js';
export { OMIT, isOmit, TemplateFailure } from './undefined.js';
export { withLoopItems } from './with-loop.js';
