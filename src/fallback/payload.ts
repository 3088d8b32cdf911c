// The payload for a host: the fallback modules of this run and every module_utils file they import,
// gathered by the controller's ansible-core (controller/payload.py) into one deterministic zip whose
// sha256 names it. Built once per run for the set of modules, whatever the number of hosts.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { HostwireError } from '../errors.js';
import type { AnsibleCore } from './ansible-core.js';
import { payloadCacheDir, readCachedPayload, writeCachedPayload } from './payload-cache.js';
import type { Payload } from './payload-types.js';

export interface PayloadModule {
  remoteFqn: string;
  path: string;
}


export interface PayloadRequest {
  modules: PayloadModule[];
  /** module_utils folders besides ansible-core's own (configured, roles', the playbook's). */
  moduleUtils: string[];
  /** Collection roots for ansible-core's collection loader. */
  collections: string[];
}

/** The helper lives beside the sources: three levels above both dist/src/fallback and dist/bundle/cli. */
const HELPER = fileURLToPath(new URL('../../../src/fallback/controller/payload.py', import.meta.url));

function runHelper(core: AnsibleCore, request: PayloadRequest): Promise<string> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ANSIBLE_COLLECTIONS_PATH: request.collections.join(':'), ANSIBLE_DEPRECATION_WARNINGS: 'false' };
    const child = spawn(core.python, [HELPER], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => reject(new HostwireError('internal', `cannot run ${core.python} for ansible-core: ${e.message}`, { cause: e })));
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      if (code === 0) resolve(stdout);
      else reject(new HostwireError('internal', `ansible-core's module finder (${core.python} ${HELPER}) exited ${code}: ${Buffer.concat(err).toString('utf8').trim().slice(-2000)}`));
    });
    child.stdin.end(JSON.stringify({ modules: request.modules.map((m) => ({ fqn: m.remoteFqn, path: m.path })), module_utils: request.moduleUtils }));
  });
}

/** Two different files may not run under one Python name in one payload (library/x.py and ansible.builtin.x). */
function checkDistinct(modules: PayloadModule[]): PayloadModule[] {
  const byFqn = new Map<string, string>();
  for (const m of modules) {
    const other = byFqn.get(m.remoteFqn);
    if (other && other !== m.path) throw new HostwireError('bad-input', `two modules run as ${m.remoteFqn} in one run: ${other} and ${m.path}; rename one (hostwire ships them together)`);
    byFqn.set(m.remoteFqn, m.path);
  }
  return [...byFqn].map(([remoteFqn, path]) => ({ remoteFqn, path })).sort((a, b) => a.remoteFqn.localeCompare(b.remoteFqn));
}

const built = new Map<string, Promise<Payload>>();

/** The payload for these modules (memoized for the process, kept on the controller between runs). */
export function buildPayload(core: AnsibleCore, request: PayloadRequest, cacheDir = payloadCacheDir()): Promise<Payload> {
  const modules = checkDistinct(request.modules);
  const key = [core.python, core.version, modules, request.moduleUtils, request.collections];
  const memo = JSON.stringify([cacheDir, key]);
  let p = built.get(memo);
  if (!p) {
    p = (async () => {
      const cached = await readCachedPayload(cacheDir, key);
      if (cached) return cached;
      const r = JSON.parse(await runHelper(core, { ...request, modules })) as { zip?: string; files?: string[]; sources?: string[]; error?: string };
      if (r.error !== undefined) throw new HostwireError('bad-input', `ansible-core could not gather a fallback module's code: ${r.error}`);
      const zip = Buffer.from(r.zip ?? '', 'base64');
      const payload = { hash: createHash('sha256').update(zip).digest('hex'), zip, files: r.files ?? [] };
      await writeCachedPayload(cacheDir, key, payload, r.sources ?? []);
      return payload;
    })();
    built.set(memo, p);
    p.catch(() => built.delete(memo));
  }
  return p;
}
