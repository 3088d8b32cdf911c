// selinux's judgement (ansible.posix 1.5.4 main()), pure: from the runtime mode, the config file and
// the policy libselinux reports, the result the module returns and the changes it makes - one atomic
// write of the config file (policy, then state, as its two rewrites leave it) and the runtime mode.
import type { Change, ModuleResult } from '../types.js';
import { configValue, withConfigValue, type ConfigFile, type RuntimeState } from './read.js';
import type { SelinuxArgs } from './args.js';

export interface SelinuxHave {
  runtime: RuntimeState;
  /** The file the task names, undefined when missing. */
  config?: ConfigFile;
  /** /etc/selinux/config, where libselinux reads the running policy's name. */
  system?: ConfigFile;
  /** /etc/selinux/<policy>/policy exists. */
  policyInstalled: boolean;
}

export interface SelinuxPlan {
  result: ModuleResult;
  changes: Change[];
}

const done = (result: ModuleResult): SelinuxPlan => ({ result, changes: [] });
/** A value as Python's '%s' prints it (None for none). */
const py = (v: string | null) => v ?? 'None';

export function planSelinux(h: SelinuxHave, a: SelinuxArgs, check: boolean): SelinuxPlan {
  if (!h.config) return done({ changed: false, failed: true, msg: `Unable to find file ${a.configfile}`, details: 'Please install SELinux-policy package, if this package is not installed previously.' });
  // libselinux's selinux_getpolicytype: SELINUXTYPE of /etc/selinux/config, 'targeted' when unset or missing.
  const runtimePolicy = (h.system && configValue(h.system.text, 'SELINUXTYPE')) || 'targeted';
  const configPolicy = configValue(h.config.text, 'SELINUXTYPE') ?? null;
  const configState = configValue(h.config.text, 'SELINUX') ?? null;
  if (a.state !== 'disabled' && !a.policy) return done({ changed: false, failed: true, msg: "Policy is required if state is not 'disabled'" });
  const policy = a.policy || configPolicy;
  const msgs: string[] = [];
  const warnings: string[] = [];
  let changed = false;
  let reboot = false;
  let text = h.config.text;
  const changes: Change[] = [];
  // The module leaves check mode at the first policy difference with changed alone.
  if (policy !== runtimePolicy) {
    if (check) return done({ changed: true });
    msgs.push(`Running SELinux policy changed from '${py(runtimePolicy)}' to '${py(policy)}'`);
    changed = true;
  }
  if (policy !== configPolicy) {
    if (check) return done({ changed: true });
    if (!h.policyInstalled) return done({ changed: false, failed: true, msg: `Policy ${policy} does not exist in /etc/selinux/` });
    text = withConfigValue(text, 'SELINUXTYPE', String(policy));
    msgs.push(`SELinux policy configuration in '${a.configfile}' changed from '${py(configPolicy)}' to '${py(policy)}'`);
    changed = true;
  }
  if (a.state !== h.runtime) {
    if (h.runtime === 'disabled') {
      warnings.push(`Reboot is required to set SELinux state to '${a.state}'`);
      reboot = true;
    } else if (a.state === 'disabled') {
      if (h.runtime !== 'permissive') {
        changes.push(setenforce('permissive', h.runtime));
        warnings.push(`SELinux state temporarily changed from '${h.runtime}' to 'permissive'. State change will take effect next reboot.`);
        changed = true;
      } else warnings.push('SELinux state change will take effect next reboot');
      reboot = true;
    } else {
      changes.push(setenforce(a.state, h.runtime));
      msgs.push(`SELinux state changed from '${h.runtime}' to '${a.state}'`);
      changed = true;
    }
  }
  if (a.state !== configState) {
    text = withConfigValue(text, 'SELINUX', a.state);
    msgs.push(`Config SELinux state changed from '${py(configState)}' to '${a.state}'`);
    changed = true;
  }
  if (text !== h.config.text) {
    const { mode, owner, group } = h.config;
    changes.unshift({ summary: `rewrite ${a.configfile}`, before: h.config.text, after: text, run: [], write: { path: a.configfile, content: text, mode: mode.padStart(4, '0'), owner, group } });
  }
  const result: ModuleResult = { changed, msg: msgs.join(', '), configfile: a.configfile, policy, state: a.state, reboot_required: reboot, ...(warnings.length ? { warnings } : {}) };
  return { result, changes };
}

function setenforce(to: 'enforcing' | 'permissive', from: RuntimeState): Change {
  return { summary: `SELinux runtime mode ${to}`, before: `${from}\n`, after: `${to}\n`, run: [`printf %s ${to === 'enforcing' ? 1 : 0} > /sys/fs/selinux/enforce`] };
}
