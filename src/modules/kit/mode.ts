// File modes as Ansible takes them: an octal string ('0644', '644') or a number, which YAML 1.1
// already turned from 0644 into 420 - so a number is the permission value itself, as in Ansible.
import { z } from 'zod';

export const modeArg = z
  .union([
    z.string().regex(/^0?[0-7]{3,4}$/, "expected an octal mode like '0644'"),
    z.number().int().min(0).max(0o7777),
  ])
  .transform((m) => (typeof m === 'number' ? m.toString(8) : m).padStart(4, '0'));

/** True when a mode as printed by `stat -c %a` ('644', '4755') equals the wanted octal string. */
export function sameMode(statMode: string, want: string): boolean {
  return parseInt(statMode, 8) === parseInt(want, 8);
}

/** '644' -> '0644', for messages and diffs. */
export const showMode = (m: string) => m.padStart(4, '0');
