// Ansible's colours (ok green, changed yellow, failed red, skipped cyan), only on a TTY and
// never when NO_COLOR is set.
const code = { green: 32, yellow: 33, red: 31, cyan: 36, magenta: 35, bold: 1, gray: 90 } as const;
export type Color = keyof typeof code;

export function makePaint(enabled: boolean) {
  return (color: Color, text: string) => (enabled ? `\x1b[${code[color]}m${text}\x1b[0m` : text);
}

export const colorsWanted = (stream: NodeJS.WriteStream) => Boolean(stream.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
