#!/usr/bin/env node
// The `hostwire` bin (bundled by scripts/bundle.js to dist/bundle/cli/main.js): runs the CLI bundle
// beside it, cli.cjs, with the V8 code cache of compile-cache.ts.
import { fileURLToPath } from 'node:url';
import { runBundle } from './compile-cache.js';

const word = process.argv.slice(2).find((a) => !a.startsWith('-'));
runBundle(fileURLToPath(new URL('./cli.cjs', import.meta.url)), word === 'run' ? 'run' : 'other');
