// Debian's Chromium, headless, for end-to-end checks of HTML/SVG output: the DOM after scripts
// ran, and a screenshot. Each call gets its own throw-away profile directory.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumPath(): string {
  const found = CANDIDATES.find((p) => existsSync(p));
  if (!found) throw new Error('Chromium is missing: apt-get install -y --no-install-recommends chromium (scripts/setup.sh installs it)');
  return found;
}

async function chromium(args: string[]): Promise<string> {
  const profile = mkdtempSync(path.join(tmpdir(), 'hw-chromium-'));
  try {
    return await new Promise<string>((resolve, reject) => {
      execFile(chromiumPath(), ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--no-first-run', '--disable-extensions', `--user-data-dir=${profile}`, ...args],
        { timeout: 90_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) => (err ? reject(new Error(`chromium failed: ${err.message}\n${stderr}`)) : resolve(stdout)));
    });
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

export const dumpDom = (file: string) => chromium(['--dump-dom', pathToFileURL(file).href]);

export async function screenshot(file: string, out: string, width: number, height: number): Promise<void> {
  await chromium([`--screenshot=${out}`, `--window-size=${width},${height}`, pathToFileURL(file).href]);
  if (!existsSync(out)) throw new Error(`chromium wrote no screenshot to ${out}`);
}
