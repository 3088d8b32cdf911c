// uri.py's result from one response: fetch_url's info (lower-cased headers, cookies on success, msg,
// the error body), redirected, elapsed, status, changed; header names with '-' as '_'; Location made
// absolute; content decoded by its charset and parsed when the type is JSON; the failure message when
// the status is not one of status_code.
import { posix } from 'node:path';
import type { ModuleResult } from '../types.js';
import type { HttpResponse } from '../kit/http-helper.js';
import { setOwn } from '../../own-keys.js';

const JSON_CANDIDATES = new Set(['json', 'javascript']);

/** Python's repr of a list of ints: [200, 201]. */
const pyList = (l: number[]) => `[${l.join(', ')}]`;

export function absoluteLocation(url: string, location: string): string {
  if (location.includes('://')) return location;
  if (location.startsWith('/')) {
    let path = '';
    try {
      path = new URL(url).pathname;
    } catch {
      path = '';
    }
    return `${path ? url.replace(path, '') : url}${location}`;
  }
  return `${posix.dirname(url)}/${location}`;
}

function isJsonType(resp: HttpResponse): boolean {
  const type = resp.contentType?.[0];
  if (!type || resp.status === -1) return false;
  const sub = type.split('/')[1] ?? '';
  return JSON_CANDIDATES.has((sub.includes('+') ? sub.slice(sub.indexOf('+') + 1) : sub).toLowerCase());
}

function decode(bytes: Buffer, charset: string | null | undefined): string {
  try {
    return new TextDecoder((charset ?? 'utf-8').split(',')[0]!.trim()).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

/** fetch_url's info dict, in its key order. */
function infoOf(resp: HttpResponse): Record<string, unknown> {
  const info: Record<string, unknown> = { url: resp.url, status: resp.status, ...resp.headers };
  if (resp.cookies) {
    info.cookies_string = resp.cookies.map(([k, v]) => `${k}=${v}`).join('; ');
    info.cookies = Object.fromEntries(resp.cookies);
  }
  info.msg = resp.msg;
  if (resp.errorBody) info.body = resp.errorBody.toString('utf8');
  return info;
}

export function uriResult(url: string, resp: HttpResponse, o: { statusCodes: number[]; returnContent: boolean }): ModuleResult {
  const maybeJson = isJsonType(resp);
  const inCodes = o.statusCodes.includes(resp.status);
  const maybeOutput = maybeJson || o.returnContent || !inCodes;
  const info = infoOf(resp);
  // The content is the body read, or an error's body popped from info; else it stays (as info's body).
  let raw: Buffer | undefined;
  if (maybeOutput && resp.status !== -1) {
    raw = resp.body ?? resp.errorBody ?? Buffer.alloc(0);
    delete info.body;
  }
  const out: ModuleResult = { redirected: resp.url !== url, ...info, elapsed: 0, status: resp.status, changed: false };
  const result: ModuleResult = { changed: false };
  for (const [k, v] of Object.entries(out)) setOwn(result, k.replace(/-/g, '_').toLowerCase(), v);
  if (typeof result.location === 'string') result.location = absoluteLocation(url, result.location);
  const content = raw === undefined ? undefined : decode(raw, resp.contentType?.[1]);
  if (content !== undefined && maybeJson) {
    try {
      result.json = JSON.parse(content);
    } catch {
      // not JSON after all: as uri.py, no json key
    }
  }
  if (!inCodes) {
    result.msg = `Status code was ${resp.status} and not ${pyList(o.statusCodes)}: ${String(result.msg ?? '')}`;
    return o.returnContent ? { content: content ?? null, ...result, failed: true } : { ...result, failed: true };
  }
  return o.returnContent ? { content: content ?? null, ...result } : result;
}
