// Bundles the compiled CLI (dist/src/cli/main.js) into dist/bundle/cli/, the `hostwire` bin.
// Why: Node 20's ESM loader resolves and reads each module file separately; `hostwire run` loaded
// ~360 files, ~0.3 s of start-up on every run (measured: 10-host no-op 1.82 -> 1.58 s median).
// The bundle is ONE CommonJS file, cli.cjs: the bin (main.js, from src/cli/bin.ts) runs it through
// vm.Script with a V8 code cache (src/cli/compile-cache.ts), which Node 20 offers for scripts only.
// Lazily imported commands stay lazy: esbuild turns their import() into a deferred require.
// The output stays three levels below the repository (like dist/src/cli): `init` finds the
// repository's roles relative to its own file.
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const OUT = 'dist/bundle/cli';

/** `require('./x.node')` inside a package -> `require('<package>/<path>/x.node')`, resolved at run time. */
const nativeFromNodeModules = {
  name: 'native-from-node-modules',
  setup(b) {
    b.onResolve({ filter: /\.node$/ }, (args) => {
      const i = args.resolveDir.lastIndexOf('/node_modules/');
      if (i < 0) return { path: args.path, external: true };
      const inPackage = `${args.resolveDir.slice(i + '/node_modules/'.length)}/${args.path}`.replace(/\/\.\//g, '/');
      return { path: inPackage, external: true };
    });
  },
};

// Chunks of the earlier, split ESM bundle (name-HASH.js): never loaded now, removed so they cannot mislead.
for (const f of readdirSync(OUT, { withFileTypes: true }).map((d) => d.name)) {
  if (/-[A-Z0-9]{8}\.js(\.map)?$/.test(f)) rmSync(join(OUT, f));
}

const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: 'linked', logLevel: 'warning' };

await build({
  ...common,
  entryPoints: ['dist/src/cli/main.js'],
  outfile: `${OUT}/cli.cjs`,
  format: 'cjs',
  // Native add-ons stay in node_modules: ssh2's optional crypto binding is loaded from there by
  // package path (plugin below), cpu-features (optional) too.
  external: ['cpu-features'],
  plugins: [nativeFromNodeModules],
  // The sources are ES modules: import.meta.url is the bundle's own file (vm.Script passes __filename).
  define: { 'import.meta.url': '__hwImportMetaUrl' },
  banner: { js: "const __hwImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});

await build({
  ...common,
  entryPoints: ['dist/src/cli/bin.js'],
  outfile: `${OUT}/main.js`,
  format: 'esm',
});

// The bin reads an ASCII-only bundle as a one-byte string (src/cli/compile-cache.ts decodeSource): esbuild
// escapes non-ASCII in code (charset ascii) but keeps it in the comments it carries over from packages.
// Those characters become \u escapes (still a comment; valid in strings too).
for (const f of [`${OUT}/cli.cjs`, `${OUT}/main.js`]) {
  const text = readFileSync(f, 'utf8');
  const ascii = text.replace(/[^\x00-\x7f]/gu, (c) => [...c].map((ch) => `\\u{${ch.codePointAt(0).toString(16)}}`).join(''));
  if (ascii !== text) writeFileSync(f, ascii, { mode: 0o755 });
}
