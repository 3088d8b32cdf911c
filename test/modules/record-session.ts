// Records session cases (session-case.ts) on a lab host, run by hand:
//   node dist/test/modules/record-session.js LAB SCENARIOS.json OUTDIR
// SCENARIOS: [{ name, module, args, check?, prep?, after?, files?, ansible? }] - `prep`/`after` are shell
// run on the host before/after (both tools start from the same state), `files` controller files beside
// the playbook (include_vars). Each scenario runs through hostwire's module with every exec and
// (re)connect recorded, then all run as one ansible-playbook play (ansible-core 2.14, minimal callback,
// each result re-read through `debug: var=r`) on the same host. OUTDIR/NAME.json gets session, result
// and recorded; a reviewer adds `ignore` (time-dependent keys) and `differs` (named differences) and
// moves it to src/modules/<module>/cases/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { readState } from '../../src/lab/index.js';
import { createTransport } from '../../src/transports/index.js';
import type { Transport } from '../../src/transports/transport.js';
import { getModule } from '../../src/modules/all.js';
import { parseModuleArgs } from '../../src/modules/kit/ansible-coerce.js';
import type { ModuleContext, ModuleResult } from '../../src/modules/types.js';
import { readYamlFile } from '../../src/engine/yaml-source.js';
import type { SessionStep } from './session-case.js';

interface Scenario { name: string; module: string; args: Record<string, unknown>; check?: boolean; prep?: string; after?: string; files?: Record<string, string>; ansible?: string }

/** The transport with every exec and (re)connect appended to `steps`. */
function recording(real: Transport, steps: SessionStep[]): Transport {
  return new Proxy(real, {
    get(o, k) {
      const t = o as unknown as Record<string | symbol, unknown>;
      if (k === 'exec') {
        return async (cmd: string, opts?: object) => {
          try {
            const r = await o.exec(cmd, opts);
            steps.push({ exec: cmd, stdout: r.stdout, ...(r.stderr ? { stderr: r.stderr } : {}), rc: r.code });
            return r;
          } catch (e) {
            steps.push({ exec: cmd, lost: (e as Error).message });
            throw e;
          }
        };
      }
      if (k === 'writeFile') {
        return async (file: string, content: string | Buffer, opts: { mode?: string; owner?: string; group?: string } = {}) => {
          await o.writeFile(file, content, opts);
          steps.push({ write: file, content: String(content), ...(opts.mode ? { mode: opts.mode } : {}), ...(opts.owner ? { owner: opts.owner } : {}), ...(opts.group ? { group: opts.group } : {}) });
        };
      }
      if ((k === 'connect' || k === 'reconnect') && typeof t[k] === 'function') {
        return async () => {
          try {
            await (t[k] as () => Promise<void>).call(o);
            steps.push({ connect: true });
          } catch (e) {
            steps.push({ connect: (e as Error).message });
            throw e;
          }
        };
      }
      const v = t[k];
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(o) : v;
    },
  });
}

async function main(): Promise<void> {
  const [lab, scenFile, outArg] = process.argv.slice(2);
  const state = await readState(lab!);
  if (!state) throw new Error(`no lab ${lab}`);
  const h = state.hosts[0]!;
  const out = path.resolve(outArg!);
  mkdirSync(out, { recursive: true });
  const scen = JSON.parse(readFileSync(scenFile!, 'utf8')) as Scenario[];
  const connect = () => createTransport(h.name, { host: h.ip, user: 'root', privateKeyFile: state.keyFile, knownHostsFile: state.knownHostsFile, netns: state.netns });
  for (const s of scen) for (const [f, text] of Object.entries(s.files ?? {})) mkdirSync(path.dirname(path.join(out, f)), { recursive: true }), writeFileSync(path.join(out, f), text);
  const plain = connect();
  await plain.connect();
  const sh = async (c: string) => { if ((await plain.exec(c)).code !== 0) throw new Error(`failed: ${c}`); };
  const cases: Record<string, Record<string, unknown>> = {};
  for (const s of scen) {
    if (s.prep) await sh(s.prep);
    const steps: SessionStep[] = [];
    const t = recording(connect(), steps);
    await t.connect();
    steps.length = 0;
    const mod = getModule(s.module)!;
    const parsed = parseModuleArgs(mod.args, s.args);
    if (!parsed.success) throw new Error(`${s.name}: ${parsed.error.message}`);
    const ctx: ModuleContext = {
      host: h.name, transport: t, check: Boolean(s.check), diff: false, vars: s.files ? { playbook_dir: out } : {}, baseDir: s.files ? out : '/nonexistent',
      render: (x) => x, deferred: new Map(), readVarsFile: readYamlFile, wait: (ms) => new Promise((r) => setTimeout(() => r(true), ms)),
      probe: async (p) => { const r = await t.exec(p.command); return p.parse({ stdout: r.stdout, rc: r.code }); },
    };
    const result: ModuleResult = s.check && mod.skipsInCheck ? mod.checkSkipped!(parsed.data) : await mod.run!(parsed.data, ctx);
    await t.close().catch(() => undefined);
    cases[s.name] = { host: `lab host ${h.name}`, module: s.module, args: s.args, ...(s.check ? { check: true } : {}), ...(s.files ? { files: s.files } : {}), session: steps, result };
    if (s.after) await sh(s.after);
  }
  await plain.close();
  const tasks = scen.flatMap((s) => [
    ...(s.prep ? [{ name: `prep ${s.name}`, shell: s.prep }] : []),
    { name: s.name, [s.ansible ?? s.module]: s.args, register: 'r', ignore_errors: true, ...(s.check ? { check_mode: true } : {}) },
    { name: `result ${s.name}`, debug: { var: 'r' } },
    ...(s.after ? [{ name: `after ${s.name}`, shell: s.after }] : []),
  ]);
  writeFileSync(path.join(out, 'play.yml'), stringify([{ hosts: 'all', gather_facts: false, tasks }]));
  writeFileSync(path.join(out, 'inventory.yml'), execFileSync(process.execPath, [path.resolve(path.dirname(process.argv[1]!), '../../src/cli/main.js'), 'lab', 'inventory', '--name', lab!]));
  const text = execFileSync('ip', ['netns', 'exec', state.netns, 'ansible-playbook', '-i', path.join(out, 'inventory.yml'), path.join(out, 'play.yml')], {
    env: { ...process.env, ANSIBLE_STDOUT_CALLBACK: 'minimal', ANSIBLE_PYTHON_INTERPRETER: '/usr/bin/python3', ANSIBLE_NOCOLOR: '1' }, maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'inherit'],
  }).toString();
  // Each `debug: var=r` prints `HOST | SUCCESS => {"r": ...}`, in task order.
  const registered = [...text.matchAll(new RegExp(`^${h.name} \\| SUCCESS => (\\{\\n {4}"r": [\\s\\S]*?\\n\\})$`, 'gm'))].map((m) => (JSON.parse(m[1]!) as { r: Record<string, unknown> }).r);
  if (registered.length !== scen.length) throw new Error(`${registered.length} registered results for ${scen.length} scenarios:\n${text.slice(-2000)}`);
  scen.forEach((s, i) => {
    const { invocation: _i, ...recorded } = registered[i]!;
    const json = JSON.stringify({ ...cases[s.name], recorded }, null, 2).split(out).join('{playbook_dir}');
    writeFileSync(path.join(out, `${s.name}.json`), `${json}\n`);
  });
}

await main();
