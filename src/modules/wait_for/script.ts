// The wait loop as one shell script run ON the host: one exec however many tries it takes.
// It prints `wait_for:ready <seconds>` or `wait_for:timeout <seconds>` as its last line.
import { quoteWord } from '../kit/shell-words.js';

export interface WaitSpec {
  /** Shell test that succeeds when the wait is over. */
  condition: string;
  timeout: number;
  delay: number;
  sleep: number;
}

export function portCondition(host: string, port: number, open: boolean): string {
  // bash's /dev/tcp: no nc/ncat needed on the host; `timeout` bounds a connect to a silent address.
  const probe = `timeout 2 bash -c ${quoteWord(`exec 3<>/dev/tcp/${host}/${port}`)} >/dev/null 2>&1`;
  return open ? probe : `! ${probe}`;
}

export function pathCondition(path: string, present: boolean, searchRegex?: string): string {
  const p = quoteWord(path);
  if (!present) return `[ ! -e ${p} ]`;
  return searchRegex === undefined ? `[ -e ${p} ]` : `grep -Eq -- ${quoteWord(searchRegex)} ${p} 2>/dev/null`;
}

export const commandCondition = (command: string) => `( ${command} ) >/dev/null 2>&1 </dev/null`;

export function waitScript(w: WaitSpec): string {
  return [
    `start=$(date +%s); sleep ${w.delay}; deadline=$((start + ${w.delay} + ${w.timeout}))`,
    'while :; do',
    `  if ${w.condition}; then echo "wait_for:ready $(( $(date +%s) - start ))"; break; fi`,
    `  if [ "$(date +%s)" -ge "$deadline" ]; then echo "wait_for:timeout $(( $(date +%s) - start ))"; break; fi`,
    `  sleep ${w.sleep}`,
    'done',
  ].join('\n');
}

/** Pure reading of the script's output. */
export function parseWait(stdout: string): { ready: boolean; elapsed: number } | undefined {
  const m = /wait_for:(ready|timeout) (\d+)\s*$/.exec(stdout);
  return m ? { ready: m[1] === 'ready', elapsed: Number(m[2]) } : undefined;
}
