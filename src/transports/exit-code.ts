// Exit status conventions shared by the transports: 128+n for a signal, 124 for a timeout.
import { constants } from 'node:os';

export const TIMEOUT_EXIT_CODE = 124;

export function exitCodeOf(code: number | null | undefined, signal?: string | null): number {
  if (typeof code === 'number') return code;
  if (signal) {
    const name = (signal.startsWith('SIG') ? signal : `SIG${signal}`) as keyof typeof constants.signals;
    return 128 + (constants.signals[name] ?? 0);
  }
  return 255;
}
