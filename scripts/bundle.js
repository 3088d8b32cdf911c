// Bundles the compiled CLI (dist/src/cli/main.js) into dist/bundle/cli/, the `hostwire` bin.
// Why: Node 20's ESM loader resolves and reads each module file separately; `hostwire run` loaded
// ~360 files, ~0.3 s of start-up on every run (measured: 10-host no-op 1.82 -> 1.58 s median).
// Lazily imported commands become chunks, so a run still loads only what it uses.
// The output stays three levels below the repository (like dist/src/cli): `init` finds the
// repository's roles relative to its own file.
import { build } from 'esbuild';

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

await build({
  entryPoints: ['dist/src/cli/main.js'],
  outdir: 'dist/bundle/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Native add-ons stay in node_modules: ssh2's optional crypto binding is loaded from there by
  // package path (plugin below), cpu-features (optional) too.
  external: ['cpu-features'],
  plugins: [nativeFromNodeModules],
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
