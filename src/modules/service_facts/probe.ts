// service_facts' read (ansible-core 2.14 modules/service_facts.py): sysvinit's `service --status-all`
// (only where no chkconfig / rc-status exists, as the module decides), then systemd's list-units and
// list-unit-files when PID 1 is systemd, and the ActiveState of unit files list-units did not show.
// The module runs `systemctl show` once per such unit; here it is one call for all of them (a
// template such as getty@.service cannot be shown: the module gets rc 1 and says 'unknown').
import { section } from '../../probe/sections.js';
import type { Probe } from '../../probe/types.js';
import { parseServiceFacts, type ServiceFactsState } from './parse.js';

const SYSTEMCTL = 'LC_ALL=C systemctl';
const LIST_UNITS = `${SYSTEMCTL} list-units --no-pager --type service --all`;
const LIST_FILES = `${SYSTEMCTL} list-unit-files --no-pager --type service --all`;

/** The unit files' names that can be shown (no template), one a line; `show` answers in their order. */
const SHOWABLE = `${LIST_FILES} 2>/dev/null | awk '/\\.service/ && $1 !~ /@\\.service$/ { print $1 }'`;

// One `systemctl show` for all; if it fails (a unit it cannot show), one per unit as the module does.
const SHOW =
  `n=$(${SHOWABLE}); if [ -n "$n" ]; then set -f; ` +
  `${SYSTEMCTL} show --property=ActiveState -- $n 2>/dev/null || ` +
  `for u in $n; do echo '::each'; ${SYSTEMCTL} show --property=ActiveState -- "$u" 2>/dev/null || echo 'ActiveState=unknown'; echo; done; fi`;

export const SERVICE_FACTS_COMMAND = [
  '(tools=; for t in service chkconfig initctl rc-status; do command -v "$t" >/dev/null 2>&1 && tools="$tools $t"; done',
  'echo "::tools$tools"',
  `${section('init', 'cat /proc/1/comm')}`,
  'case " $tools " in *" service "*) case " $tools " in *" chkconfig "*|*" rc-status "*) ;; *) ' +
    `${section('sysv', 'service --status-all')};; esac;; esac`,
  'if grep -q systemd /proc/1/comm 2>/dev/null && command -v systemctl >/dev/null 2>&1; then',
  `  ${section('units', LIST_UNITS)}`,
  `  ${section('files', LIST_FILES)}`,
  `  ${section('shown', SHOWABLE)}`,
  `  ${section('show', SHOW)}`,
  'fi)',
].join('\n');

export const serviceFactsProbe: Probe<ServiceFactsState> = { command: SERVICE_FACTS_COMMAND, parse: parseServiceFacts };
