// The name a task is shown under. Ansible's linear strategy templates it just before the task-start
// callback, with the variables of the first host that runs the task (play, role, inventory vars and
// facts; no loop `item` yet), and shows the raw name when that fails for any reason
// (plugins/strategy/linear.py: "just ignore any errors during task name templating").
import { isTemplated, renderString, type Vars } from '../vars/index.js';

export function displayName(raw: string, varsOfFirstHost: () => Vars | undefined): string {
  if (!isTemplated(raw)) return raw;
  try {
    const vars = varsOfFirstHost();
    return vars ? renderString(raw, vars) : raw;
  } catch {
    return raw;
  }
}
