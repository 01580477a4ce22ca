// Bundles the command line (run by `npm run build`, after tsc): `node dist/scripts/bundle-cli.js`.
//
// Why: the compiled command line is some 170 ES modules, and Node loads each one separately
// (resolve, read, compile, link), about a tenth of a second before any work on every command
// (BENCHMARKS.md, "Start-up"). esbuild joins them into a few files under dist/bin/: the entry
// `main.js` (package.json's bin), one chunk per command, loaded only when that command runs (so
// ink and react stay with `ui`), and chunks the commands share. The worker threads are entries of
// the same build, named as the code that starts them expects (`new URL('./minisat-worker.js',
// import.meta.url)` and the like): everything lies in one folder, so those URLs resolve there.
// Packages stay outside the bundle (`packages: 'external'`), loaded from node_modules as before.
// The library (dist/lib, package.json's main) and the tests use tsc's output; the command-line
// tests run the bundle, as users do.
import { build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = resolve(fileURLToPath(new URL('../', import.meta.url)));
const BIN_DIR = join(DIST, 'bin');

/** Entry name → compiled module. The names are the file names the starting code looks for. */
const ENTRIES: Record<string, string> = {
  'main': join(DIST, 'cli', 'main.js'),
  'minisat-worker': join(DIST, 'lib', 'sat', 'minisat-worker.js'),
  'checker-worker': join(DIST, 'lib', 'certify', 'checker-worker.js'),
  'worker': join(DIST, 'lib', 'portfolio', 'worker.js'),
  'analysis-worker': join(DIST, 'cli', 'ui', 'analysis-worker.js'),
};

async function main(): Promise<void> {
  rmSync(BIN_DIR, { recursive: true, force: true });
  await build({
    entryPoints: ENTRIES,
    outdir: BIN_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    logLevel: 'warning',
  });
  chmodSync(join(BIN_DIR, 'main.js'), 0o755);
  // The bin before the bundle: npx keeps the link it made to a checkout path and follows it again on
  // a fresh clone at that path, so that file must stay a runnable program too.
  chmodSync(join(DIST, 'cli', 'main.js'), 0o755);
}

await main();
