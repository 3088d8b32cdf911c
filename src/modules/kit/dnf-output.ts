// Reads what dnf printed for one action (the same table with -y and with --assumeno): the transaction's
// packages as the module lists them in `results` (install_set "Installed: NEVRA", remove_set "Removed:
// NEVRA" - an upgraded package's old version among them), "Nothing to do", the specs no repository
// matches, and dnf's error. Host output is data: only parsed.
import { nevra, type RpmPackage } from './dnf-read.js';

export interface DnfOutcome {
  installed: string[];
  removed: string[];
  /** The transaction was empty ("Nothing to do."). */
  nothing: boolean;
  /** Specs dnf found no package for ("No match for argument: X"). */
  noMatch: string[];
  /** The module's failures for them: 'No package X available.', or 'X <dnf's reason>' when excludes hid X. */
  failures: string[];
  /** dnf's error line(s) when it failed otherwise; depsolve when the transaction could not be resolved. */
  error?: string;
  depsolve?: boolean;
}

const ROW = /^ (\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+\d[\d.]*(?: [kMG])?\s*$/;
const WRAPPED = /^\s+(\S+)\s+(\S+)\s+(\S+)\s+\d[\d.]*(?: [kMG])?\s*$/;

/** A table row's version column is [epoch:]version-release; dnf's str() shows a non-zero epoch. */
const rowNevra = (name: string, arch: string, evr: string) => `${name}-${evr.replace(/^0:/, '')}.${arch}`;

/**
 * `before`: the installed packages before the action (rpm -qa), for the old versions an upgrade or a
 * downgrade removes (the table names only the new one).
 */
export function parseDnfOutput(out: string, rc: number, before: RpmPackage[]): DnfOutcome {
  const o: DnfOutcome = { installed: [], removed: [], nothing: /^Nothing to do\.$/m.test(out), noMatch: [], failures: [] };
  for (const m of out.matchAll(/^No match for argument: (.*)$/gm)) o.noMatch.push(m[1].trim());
  o.failures = o.noMatch.map((spec) => `No package ${spec} available.`);
  for (const m of out.matchAll(/^(All matches were filtered out by .* for argument: (.*))$/gm)) {
    o.noMatch.push(m[2].trim());
    o.failures.push(`${m[2].trim()} ${m[1]}`);
  }
  let kind: 'install' | 'replace' | 'remove' | undefined;
  let pendingName: string | undefined;
  for (const line of out.split('\n')) {
    if (/^Transaction Summary$/.test(line)) break;
    const head = /^([A-Z][A-Za-z /-]*):$/.exec(line);
    if (head) {
      const h = head[1];
      kind = /^(Upgrading|Downgrading)/.test(h) ? 'replace' : /^(Installing|Reinstalling)/.test(h) ? 'install' : /^Removing/.test(h) ? 'remove' : undefined;
      continue;
    }
    if (!kind) continue;
    let row = ROW.exec(line)?.slice(1, 4);
    if (!row && pendingName && WRAPPED.test(line)) row = [pendingName, ...WRAPPED.exec(line)!.slice(1, 3)];
    pendingName = /^ (\S+)\s*$/.exec(line)?.[1];
    if (!row) continue;
    const [name, arch, evr] = row;
    if (kind === 'remove') o.removed.push(rowNevra(name, arch, evr));
    else o.installed.push(rowNevra(name, arch, evr));
    if (kind === 'replace') o.removed.push(...before.filter((p) => p.name === name && p.arch === arch).map(nevra));
  }
  const aborted = /^Operation aborted\.$/m.test(out);
  if (rc !== 0 && !aborted && o.noMatch.length === 0) {
    // dnf prints the exception's text after 'Error: ' (a depsolve problem on the lines below it), as the module's to_native(e).
    const at = /^Error: ?/m.exec(out);
    const text = at ? out.slice(at.index + at[0].length) : out;
    // dnf's hint to the CLI user ('(try to add --allowerasing ...)') is not the error.
    o.error = text.split('\n').filter((l) => !/^\(try to add /.test(l)).join('\n').trimEnd();
    o.depsolve = /^ Problem/m.test(o.error);
  }
  return o;
}
