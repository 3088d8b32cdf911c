// The firewalld read: runtime and permanent zone settings over D-Bus (busctl, ~7 ms each) or,
// without busctl, through firewall-cmd; with the daemon stopped, the permanent config offline.
import { HostwireError } from '../../errors.js';
import { inlineProbe } from '../../probe/batch.js';
import { shellQuote } from '../../transports/quote.js';
import { need, readSections, requireTool, section, type Section } from '../../probe/sections.js';
import { parseBusSettings, parseBusString, parseListAll, type ZoneItems } from './parse.js';

// `--` ends busctl's options: its getopt would take a zone or source like `--help` as one.
const BUS = 'busctl --json=short -- call org.fedoraproject.FirewallD1';
const ZONE_IF = '/org/fedoraproject/FirewallD1 org.fedoraproject.FirewallD1.zone';
const CONFIG = '/org/fedoraproject/FirewallD1/config org.fedoraproject.FirewallD1.config';

export interface FirewallState {
  running: boolean;
  /** Undefined when the daemon is stopped (runtime not applicable). */
  runtime?: ZoneItems;
  permanent: ZoneItems;
  /** Zone a source is bound to (only read when the task is about a source). */
  sourceZone: { runtime?: string; permanent?: string };
}

// Several firewalld tasks of one host read the same zone: the probe runs inline in the batch's shell
// and keeps each zone's D-Bus answers in hwfw_<hex zone>_* variables, so a batch asks firewalld
// once per zone (its D-Bus calls cost the host ~15 ms of CPU each). A source's zone is only asked
// when the zone itself does not hold the source at runtime and permanently (the no-op case).
export function firewallProbeCommand(zone: string, source?: string): string {
  const z = shellQuote(zone);
  const s = source === undefined ? '' : shellQuote(source);
  // firewall-cmd's argparse reads a separate word starting with '-' as an option: `--opt=value` forms.
  const zoneOpt = shellQuote(`--zone=${zone}`);
  const ofSource = source === undefined ? '' : shellQuote(`--get-zone-of-source=${source}`);
  const v = `hwfw_${Buffer.from(zone).toString('hex')}`;
  const cached = (name: string, command: string) =>
    `if [ -z "\${${v}_${name}+x}" ]; then ${v}_${name}=$(${section(name, command)}); fi; printf '%s\\n' "$${v}_${name}"`;
  // busctl --json prints the zone's sources as JSON strings: look for exactly that, quotes included.
  const holds = source === undefined ? '' : shellQuote(JSON.stringify(source));
  const bus = [
    cached('runtime', `${BUS} ${ZONE_IF} getZoneSettings2 s ${z}`),
    cached('permanent', `hwfw_p=$(busctl -- call org.fedoraproject.FirewallD1 ${CONFIG} getZoneByName s ${z}) && hwfw_p=\${hwfw_p#*\\"} && ${BUS} "\${hwfw_p%%\\"*}" org.fedoraproject.FirewallD1.config.zone getSettings2`),
    ...(source === undefined ? [] : [
      `case "$${v}_runtime" in *${holds}*) hwfw_in=1 ;; *) hwfw_in=0 ;; esac`,
      `case "$${v}_permanent" in *${holds}*) ;; *) hwfw_in=0 ;; esac`,
      `if [ "$hwfw_in" = 0 ]; then ${section('srczone-runtime', `${BUS} ${ZONE_IF} getZoneOfSource s ${s}`)}; ${section('srczone-permanent', `${BUS} ${CONFIG} getZoneOfSource s ${s}`)}; fi`,
    ]),
  ].join('; ');
  const cmd = [
    section('runtime-text', `firewall-cmd ${zoneOpt} --list-all`),
    section('permanent-text', `firewall-cmd --permanent ${zoneOpt} --list-all`),
    ...(source === undefined ? [] : [section('srczone-runtime-text', `firewall-cmd ${ofSource}`), section('srczone-permanent-text', `firewall-cmd --permanent ${ofSource}`)]),
  ].join('; ');
  const offline = [
    section('offline', `firewall-offline-cmd ${zoneOpt} --list-all`),
    ...(source === undefined ? [] : [section('srczone-offline', `firewall-offline-cmd ${ofSource}`)]),
  ].join('; ');
  const active = 'if [ -z "${hwfw_on+x}" ]; then if systemctl is-active --quiet firewalld; then hwfw_on=1; else hwfw_on=0; fi; fi';
  return inlineProbe(`${requireTool('firewall-cmd')}; ${active}; if [ "$hwfw_on" = 1 ]; then echo '::running'; if command -v busctl >/dev/null 2>&1; then ${bus}; else ${cmd}; fi; else ${offline}; fi`);
}

function zoneError(s: Section, zone: string): HostwireError {
  if (/INVALID_ZONE/.test(s.out)) return new HostwireError('command-failed', `firewalld: no zone named ${zone}`);
  return new HostwireError('command-failed', `firewalld: cannot read zone ${zone}: ${s.out.trim()}`);
}

const textZone = (s: Section | undefined) => (s && s.rc === 0 && s.out.trim() !== 'no zone' ? s.out.trim() || undefined : undefined);

export function readFirewall(stdout: string, zone: string): FirewallState {
  const s = readSections(stdout);
  const running = /^::running$/m.test(stdout);
  if (!running) {
    const off = need(s, 'offline', stdout);
    if (off.rc !== 0) throw zoneError(off, zone);
    return { running, permanent: parseListAll(off.out), sourceZone: { permanent: textZone(s.get('srczone-offline')) } };
  }
  if (s.has('runtime')) {
    const rt = need(s, 'runtime', stdout);
    const pm = need(s, 'permanent', stdout);
    for (const x of [rt, pm]) if (x.rc !== 0) throw zoneError(x, zone);
    const sz = (k: string) => {
      const x = s.get(k);
      return x && x.rc === 0 ? parseBusString(x.out) : undefined;
    };
    return { running, runtime: parseBusSettings(rt.out), permanent: parseBusSettings(pm.out), sourceZone: { runtime: sz('srczone-runtime'), permanent: sz('srczone-permanent') } };
  }
  const rt = need(s, 'runtime-text', stdout);
  const pm = need(s, 'permanent-text', stdout);
  for (const x of [rt, pm]) if (x.rc !== 0) throw zoneError(x, zone);
  return { running, runtime: parseListAll(rt.out), permanent: parseListAll(pm.out), sourceZone: { runtime: textZone(s.get('srczone-runtime-text')), permanent: textZone(s.get('srczone-permanent-text')) } };
}
