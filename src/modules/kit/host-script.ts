// Host-side shell scripts live as .sh files beside the module that installs them, so a shell parser
// and shellcheck read them as they are (test/modules/host-scripts.test.ts). The build copies them
// into dist/ beside the compiled module and beside the bundled CLI (scripts/copy-scripts.js).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The text of the .sh file `name` next to the module `moduleUrl` (its import.meta.url). The file's
 * leading comment lines are notes for the reader of the source: they are left out, so a note can
 * change without changing the installed script (whose sha256 decides whether a host gets it again).
 */
export function readHostScript(name: string, moduleUrl: string): string {
  const path = fileURLToPath(new URL(name, moduleUrl));
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`host script ${name} is missing at ${path} (the build copies src/**/*.sh into dist/): ${(e as Error).message}`);
  }
  return text.replace(/^(?:#.*\n)+/, '');
}
