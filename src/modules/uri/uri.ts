// uri: an HTTP request from the host (ansible.builtin.uri, ansible-core 2.14: url, method, body with
// body_format raw/json/form-urlencoded, status_code, return_content, headers, follow_redirects,
// creates/removes, the url_argument_spec options; its result - headers as keys, cookies, json, content
// - and failures). Made from the host as Ansible's is (kit/http-helper.ts). No check mode, as uri.py:
// skipped under --check. dest, src and form-multipart are refused (not built).
import { z } from 'zod';
import { inlineProbe } from '../../probe/batch.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { ansibleBool, ansibleInt, withAliases } from '../kit/ansible-args.js';
import { hostRequest, urlArgs } from '../kit/http-args.js';
import { quoteWord } from '../kit/shell-words.js';
import { pythonSplitLines } from '../kit/python-lines.js';
import { prepareBody } from './body.js';
import { uriResult } from './response.js';
import { uriDoc } from './doc.js';

const uriArgs = withAliases(
  z
    .object({
      ...urlArgs,
      body: z.unknown().optional(),
      body_format: z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(['raw', 'json', 'form-urlencoded'])).default('raw'),
      method: z.string().default('GET').transform((m) => m.toUpperCase()).refine((m) => /^[A-Z]+$/.test(m), { message: "Parameter 'method' needs to be a single word in uppercase, like GET or POST." }),
      return_content: ansibleBool.default(false),
      follow_redirects: z.enum(['all', 'no', 'none', 'safe', 'urllib2', 'yes']).default('safe'),
      creates: z.string().min(1).optional(),
      removes: z.string().min(1).optional(),
      status_code: z.preprocess((v) => (typeof v === 'string' ? v.split(',') : typeof v === 'number' ? [v] : v), z.array(ansibleInt)).default([200]),
    })
    .strict(),
  { url_username: ['user'], url_password: ['password'] },
);

export type UriArgs = z.infer<typeof uriArgs>;

const existsProbe = (path: string) => ({ command: inlineProbe(`test -e ${quoteWord(path)}`), parse: (o: { rc: number }) => o.rc === 0 });

/** creates/removes: uri.py's own early exit. */
async function decided(a: UriArgs, ctx: ModuleContext): Promise<ModuleResult | undefined> {
  const skip = (stdout: string) => ({ changed: false, stdout, stdout_lines: pythonSplitLines(stdout) });
  if (a.creates !== undefined && (await ctx.probe(existsProbe(a.creates)))) return skip(`skipped, since '${a.creates}' exists`);
  if (a.removes !== undefined && !(await ctx.probe(existsProbe(a.removes)))) return skip(`skipped, since '${a.removes}' does not exist`);
  return undefined;
}

async function runUri(a: UriArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const done = await decided(a, ctx);
  if (done) return done;
  const { body, headers } = prepareBody(a.body, a.body_format, a.headers);
  const resp = await hostRequest(ctx, {
    url: a.url, method: a.method, headers, body, timeout: a.timeout, validate_certs: a.validate_certs, use_proxy: a.use_proxy,
    follow_redirects: a.follow_redirects, username: a.url_username, password: a.url_password, force_basic_auth: a.force_basic_auth,
    http_agent: a.http_agent, force: a.force, save: 'memory',
  });
  return uriResult(a.url, resp, { statusCodes: a.status_code, returnContent: a.return_content });
}

export const uriModule: Module<UriArgs> = {
  name: 'uri',
  doc: uriDoc,
  args: uriArgs,
  environment: 'applies',
  skipsInCheck: true,
  checkSkipped: () => ({ changed: false, skipped: true, msg: 'remote module (ansible.legacy.uri) does not support check mode' }),
  readsAhead: (a) => [a.creates, a.removes].filter((p): p is string => p !== undefined).map(existsProbe),
  run: runUri,
};
