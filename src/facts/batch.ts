// Many read-only probes in ONE remote exec: each is wrapped in markers, its stderr dropped, and
// the output is split back by id. A probe whose output lacks a trailing newline still splits right.
export interface BatchProbe {
  id: string;
  command: string;
}

export interface BatchOutput {
  stdout: string;
  rc: number;
}

const MARK = '@@hostwire-probe';

export function buildBatch(probes: BatchProbe[]): string {
  return probes
    .map((p) => `printf '\\n${MARK} %s\\n' '${p.id.replace(/'/g, '')}'\n( ${p.command}\n) 2>/dev/null </dev/null\nprintf '\\n${MARK}-rc %s\\n' "$?"`)
    .join('\n');
}

export function splitBatch(stdout: string): Map<string, BatchOutput> {
  const out = new Map<string, BatchOutput>();
  const re = new RegExp(`\\n${MARK} (\\S+)\\n([\\s\\S]*?)\\n${MARK}-rc (\\d+)\\n`, 'g');
  const text = stdout.startsWith('\n') ? stdout : '\n' + stdout;
  for (const m of text.matchAll(re)) {
    let body = m[2];
    out.set(m[1], { stdout: body === '' ? '' : body.endsWith('\n') ? body : body + '\n', rc: Number(m[3]) });
  }
  return out;
}
