// The expression evaluation a module gets through its context (ModuleContext.expressions): modules
// stand below the engine, so debug and assert reach the templating through this, not by import.
import { HostwireError } from '../../errors.js';
import type { TaskExpressions } from '../../modules/types.js';
import { evalCondition, evalExpressionValue, type Vars } from './render.js';
import { TemplateFailure } from './undefined.js';

export function taskExpressions(vars: Vars): TaskExpressions {
  return {
    value(expr) {
      try {
        return { defined: true, value: evalExpressionValue(expr, vars) };
      } catch (err) {
        if (err instanceof HostwireError && err.cause instanceof TemplateFailure && err.cause.undefinedVariable) return { defined: false };
        throw err;
      }
    },
    condition: (cond) => evalCondition(cond, vars),
  };
}
