// A whole file's content read from the host as slurp.py reads it (open, follow symlinks), base64 on the
// wire so no byte of it can be taken for the batch's markers; its four failures as slurp.py names them.
// slurp registers it; fetch copies it to the controller.
import { inlineProbe } from '../../probe/batch.js';
import { ProbeParseError } from '../../errors.js';
import { quoteWord } from './shell-words.js';
import type { Probe, ProbeOutput } from '../../probe/types.js';

export type ContentRead = { content: string } | { msg: string };

/** The failures slurp.py's open() can meet, in its order: missing, a directory, unreadable, anything else. */
export function slurpCommand(src: string): string {
  return inlineProbe(
    `{ f=${quoteWord(src)}; if [ ! -e "$f" ]; then echo slurp:missing; elif [ -d "$f" ]; then echo slurp:isdir; elif [ ! -r "$f" ]; then echo slurp:unreadable; ` +
      `else printf 'content:'; if base64 -w0 < "$f"; then printf '\\nslurp:ok\\n'; else printf '\\nslurp:failed\\n'; fi; fi; }`,
  );
}

export function parseSlurp(out: ProbeOutput, src: string): ContentRead {
  const lines = out.stdout.split('\n');
  const status = lines.find((l) => l.startsWith('slurp:'))?.slice(6);
  switch (status) {
    case 'ok': {
      const content = lines.find((l) => l.startsWith('content:'));
      if (content === undefined || !/^[A-Za-z0-9+/]*={0,2}$/.test(content.slice(8))) throw new ProbeParseError(`slurp of ${src}: no base64 content`, out.stdout);
      return { content: content.slice(8) };
    }
    case 'missing': return { msg: `file not found: ${src}` };
    case 'isdir': return { msg: `source is a directory and must be a file: ${src}` };
    case 'unreadable': return { msg: `file is not readable: ${src}` };
    case 'failed': return { msg: `unable to slurp file: ${src} could not be read` };
    default: throw new ProbeParseError(`slurp of ${src}: the probe printed no status`, out.stdout);
  }
}

export const contentProbe = (src: string): Probe<ContentRead> => ({ command: slurpCommand(src), parse: (out) => parseSlurp(out, src) });
