// Pure parser of service_facts' read, following ansible-core 2.14's service_facts.py line by line:
// ServiceScanService._list_sysvinit, then SystemctlScanService._list_from_units / _list_from_unit_files.
import { ProbeParseError } from '../../errors.js';
import type { ProbeOutput } from '../../probe/types.js';
import { splitSections, type Section } from '../../probe/sections.js';

export interface ServiceEntry {
  name: string;
  state: string;
  status?: string;
  source: 'sysv' | 'systemd';
}

export interface ServiceFactsState {
  services: Record<string, ServiceEntry>;
  /** An init tool the module reads and hostwire does not (chkconfig, initctl, rc-status). */
  unsupported?: string;
}

const BAD_STATES = ['not-found', 'masked', 'failed'];
const SYSV_LINE = /^\s*\[ (\+|-) \]\s+(.+)$/gm;

function listSysv(out: string, services: Record<string, ServiceEntry>): void {
  for (const m of out.matchAll(SYSV_LINE)) services[m[2]] = { name: m[2], state: m[1] === '+' ? 'running' : 'stopped', source: 'sysv' };
}

const words = (line: string) => line.trim().split(/\s+/).filter(Boolean);

function listUnits(out: string, services: Record<string, ServiceEntry>): void {
  for (const line of out.split('\n').filter((l) => l.includes('.service'))) {
    let fields = words(line);
    const bad = BAD_STATES.find((b) => fields.includes(b));
    let status: string;
    if (bad) {
      status = bad;
      fields = fields.slice(1); // the leading marker of a bad unit
    } else status = fields[2];
    if (fields.length < 4) continue;
    services[fields[0]] = { name: fields[0], state: fields[3] === 'running' ? 'running' : 'stopped', status, source: 'systemd' };
  }
}

/** `systemctl show` answers one block per shown unit, in order; the fallback marks each with '::each'. */
function activeStates(names: string[], out: string, raw: string): Map<string, string> {
  const blocks = out.includes('::each')
    ? out.split(/^::each$/m).slice(1)
    : out.replace(/\n+$/, '').split(/\n\n/);
  if (names.length > 0 && blocks.length !== names.length) throw new ProbeParseError(`service_facts: systemctl show answered ${blocks.length} units for ${names.length}`, raw);
  const states = new Map<string, string>();
  names.forEach((n, i) => {
    const text = blocks[i].trim();
    states.set(n, text === '' ? 'unknown' : text.replace('ActiveState=', '').trimEnd());
  });
  return states;
}

function listUnitFiles(files: string, states: Map<string, string>, services: Record<string, ServiceEntry>, raw: string): void {
  for (const line of files.split('\n').filter((l) => l.includes('.service'))) {
    const [name, status] = words(line);
    if (status === undefined) throw new ProbeParseError(`Malformed output discovered from systemd list-unit-files: ${line}`, raw);
    const known = services[name];
    if (!known) services[name] = { name, state: states.get(name) ?? 'unknown', status, source: 'systemd' };
    else if (!BAD_STATES.includes(known.status ?? '')) known.status = status;
  }
}

const sec = (sections: Map<string, Section>, name: string) => sections.get(name);

export function parseServiceFacts(out: ProbeOutput): ServiceFactsState {
  const tools = /^::tools(.*)$/m.exec(out.stdout);
  if (!tools) throw new ProbeParseError('service_facts: the probe printed no tools line', out.stdout);
  const found = words(tools[1]);
  const unsupported = ['chkconfig', 'initctl', 'rc-status'].find((t) => found.includes(t));
  const { sections } = splitSections(out.stdout);
  const services: Record<string, ServiceEntry> = {};
  const sysv = sec(sections, 'sysv');
  if (sysv) listSysv(sysv.out, services);
  const units = sec(sections, 'units');
  const files = sec(sections, 'files');
  if (units && units.rc === 0) listUnits(units.out, services);
  if (files && files.rc === 0) {
    const names = words(sec(sections, 'shown')?.out ?? '');
    listUnitFiles(files.out, activeStates(names, sec(sections, 'show')?.out ?? '', out.stdout), services, out.stdout);
  }
  return { services, ...(unsupported ? { unsupported } : {}) };
}
