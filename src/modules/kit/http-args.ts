// The arguments Ansible's url_argument_spec() gives get_url and uri (module_utils/urls.py), and the
// host request they make: the one exec of kit/http-helper.ts.
import { z } from 'zod';
import type { ModuleContext } from '../types.js';
import { ansibleBool, ansibleInt } from './ansible-args.js';
import { quoteWord } from './shell-words.js';
import { httpCommand, httpStdin, parseHttpResponse, type HttpRequest, type HttpResponse } from './http-helper.js';

export const urlArgs = {
  url: z.string().min(1),
  force: ansibleBool.default(false),
  http_agent: z.string().default('ansible-httpget'),
  use_proxy: ansibleBool.default(true),
  validate_certs: ansibleBool.default(true),
  url_username: z.string().optional(),
  url_password: z.string().optional(),
  force_basic_auth: ansibleBool.default(false),
  timeout: ansibleInt.default(30),
  headers: z.record(z.union([z.string(), z.number(), z.boolean()]).transform(String)).default({}),
};

export const urlArgAliases = { url_username: ['username'], url_password: ['password'] } as const;

export const urlArgDocs = {
  url: 'The http, https or ftp URL, fetched from the host.',
  force: 'get_url: download even when dest exists (no If-Modified-Since); uri: send cache-control: no-cache.',
  http_agent: 'The User-agent header.',
  use_proxy: 'Use the proxy the host\'s environment names (false ignores it).',
  validate_certs: 'Check the server\'s TLS certificate.',
  url_username: 'User name for basic authentication (alias username).',
  url_password: 'Password for basic authentication (alias password).',
  force_basic_auth: 'Send the basic authentication header with the first request instead of after a 401.',
  timeout: 'Seconds before the request gives up.',
  headers: 'Extra request headers, as a mapping.',
};

/** One request from the host (its stdout is the helper's JSON; the password travels on stdin only). */
export async function hostRequest(ctx: ModuleContext, r: HttpRequest): Promise<HttpResponse> {
  // `environment:` (http_proxy...) reaches the request as it reaches Ansible's module: exported, quoted.
  const env = Object.entries(ctx.environment ?? {}).map(([k, v]) => `export ${k}=${quoteWord(v)}; `).join('');
  const out = await ctx.transport.exec(env + httpCommand(), { stdin: httpStdin(r), become: ctx.become });
  return parseHttpResponse(out.stdout);
}
