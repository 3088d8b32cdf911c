// Bundles the compiled CLI (dist/src/cli/main.js) into dist/bundle/cli/, the `hostwire` bin.
// Why: Node 20's ESM loader resolves and reads each module file separately; `hostwire run` loaded
// ~360 files, ~0.3 s of start-up on every run (measured: 10-host no-op 1.82 -> 1.58 s median).
// Lazily imported commands become chunks, so a run still loads only what it uses.
// The output stays three levels below the repository (like dist/src/cli): `init` finds the
// repository's roles relative to its own file.
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/src/cli/main.js'],
  outdir: 'dist/bundle/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Loaded from node_modules at run time: ssh2 (its optional native crypto binding sits beside its
  // files) and nunjucks (engine/vars/nj.ts loads one of its files by path: one copy of its classes).
  external: ['ssh2', 'cpu-features', '*.node', 'nunjucks'],
  sourcemap: 'linked',
  logLevel: 'warning',
  // CommonJS dependencies bundled into ESM still call require() and read __dirname.
  banner: {
    js: [
      "import { createRequire as __hwCreateRequire } from 'node:module';",
      "import { fileURLToPath as __hwFileURLToPath } from 'node:url';",
      'const require = __hwCreateRequire(import.meta.url);',
      'const __filename = __hwFileURLToPath(import.meta.url);',
      "const __dirname = __hwFileURLToPath(new URL('.', import.meta.url));",
    ].join(' '),
  },
});
