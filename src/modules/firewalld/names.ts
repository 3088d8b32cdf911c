// firewalld's own name rules (firewall/core/io/zone.py, service.py, io_object.py check_name):
// letters and digits (Python's isalnum) plus '_' '-' ('/' once, inside, for zones); a zone's name
// (before any '/') at most 17 characters (functions.max_zone_name_len: 28 - len('POST_') - ...).
// Checked before anything reaches a command line, so a zone like `--help` is refused, not parsed.
import { z } from 'zod';
import { describeChar } from '../kit/ifname.js';

const MAX_ZONE_NAME = 17;

const badChar = (name: string, extra: string) => [...name].find((c) => !/[\p{L}\p{N}]/u.test(c) && !extra.includes(c));

/** Why `name` is not a firewalld zone name, or undefined. */
export function zoneNameProblem(name: string): string | undefined {
  if (name === '') return "can't be empty";
  const bad = badChar(name, '_-/');
  if (bad !== undefined) return `contains ${describeChar(bad)} (firewalld allows letters, digits, '_', '-' and one inner '/')`;
  if (name.startsWith('/') || name.endsWith('/')) return "can't start or end with '/'";
  if (name.split('/').length > 2) return "has more than one '/'";
  const base = name.split('/')[0];
  if ([...base].length > MAX_ZONE_NAME) return `has ${[...base].length} characters, firewalld allows ${MAX_ZONE_NAME}`;
  return undefined;
}

/** Why `name` is not a firewalld service name, or undefined. */
export function serviceNameProblem(name: string): string | undefined {
  if (name === '') return "can't be empty";
  const bad = badChar(name, '_-');
  return bad === undefined ? undefined : `contains ${describeChar(bad)} (firewalld allows letters, digits, '_' and '-')`;
}

/** A source (address, network, MAC or ipset:NAME): one printable word that is not an option. */
export function sourceProblem(s: string): string | undefined {
  if (s === '') return "can't be empty";
  if (s.startsWith('-')) return "starts with '-'; an address, network, MAC or ipset:NAME was expected";
  const bad = /[\s\x00-\x1f\x7f]/u.exec(s);
  return bad ? `contains ${describeChar(bad[0])}` : undefined;
}

/** zod string checked by `problem`, the message naming `what` and the value. */
export const named = (what: string, problem: (s: string) => string | undefined) =>
  z.string().superRefine((s, ctx) => {
    const p = problem(s);
    if (p) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a firewalld ${what} (this one ${p})` });
  });
