// Pure parsers for firewalld state: busctl's JSON of getZoneSettings2 / getSettings2 (runtime and
// permanent over D-Bus) and the `--list-all` text of firewall-cmd / firewall-offline-cmd (fallbacks).
import { ProbeParseError } from '../../errors.js';

export interface ZoneItems {
  sources: string[];
  ports: string[];
  services: string[];
  interfaces: string[];
  masquerade: boolean;
}

type Variant = { type: string; data: unknown };

/** `busctl --json=short call ... getZoneSettings2 s <zone>` -> the zone's items. */
export function parseBusSettings(text: string): ZoneItems {
  let doc: { data: Record<string, Variant>[] };
  try {
    doc = JSON.parse(text) as { data: Record<string, Variant>[] };
  } catch (err) {
    throw new ProbeParseError(`cannot parse busctl output: ${(err as Error).message}`, text, err);
  }
  const d = doc.data[0] ?? {};
  const list = (k: string) => ((d[k]?.data as string[] | undefined) ?? []).map(String);
  return {
    sources: list('sources'),
    ports: ((d.ports?.data as [string, string][] | undefined) ?? []).map(([p, proto]) => `${p}/${proto}`),
    services: list('services'),
    interfaces: list('interfaces'),
    masquerade: d.masquerade?.data === true,
  };
}

/** `busctl --json=short call ... getZoneOfSource s <src>` -> zone name, or undefined when unbound. */
export function parseBusString(text: string): string | undefined {
  try {
    const v = (JSON.parse(text) as { data: string[] }).data[0];
    return v ? v : undefined;
  } catch (err) {
    throw new ProbeParseError(`cannot parse busctl output: ${(err as Error).message}`, text, err);
  }
}

/** `firewall-cmd --zone Z --list-all` (same format offline) -> the zone's items. */
export function parseListAll(text: string): ZoneItems {
  const field = (k: string) => {
    const m = new RegExp(`^\\s+${k}:(.*)$`, 'm').exec(text);
    return m ? m[1].trim().split(/\s+/).filter(Boolean) : [];
  };
  if (!/^\s+target:/m.test(text)) throw new ProbeParseError('unexpected --list-all output', text);
  return { sources: field('sources'), ports: field('ports'), services: field('services'), interfaces: field('interfaces'), masquerade: field('masquerade')[0] === 'yes' };
}
