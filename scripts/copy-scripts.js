// Copies the host-side shell scripts (src/**/*.sh, read at run time by src/modules/kit/host-script.ts)
// into dist/: beside each compiled module (dist/src/...) and beside the bundled CLI (dist/bundle/cli/,
// where every chunk looks for them, so their names must be unique across src/).
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const found = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    // cases/ holds recorded fixtures, read by the tests from src/: not shipped.
    if (e.isDirectory()) { if (e.name !== 'cases') walk(p); }
    else if (e.name.endsWith('.sh')) found.push(p);
  }
};
walk('src');

const seen = new Map();
for (const file of found) {
  const name = basename(file);
  if (seen.has(name)) throw new Error(`two host scripts named ${name}: ${seen.get(name)} and ${file} (the bundle keeps them in one folder)`);
  seen.set(name, file);
  for (const target of [join('dist', file), join('dist/bundle/cli', name)]) {
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
}
