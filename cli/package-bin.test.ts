// The README's example runs `npx farkas …`, which executes the package's `bin` file itself, not
// `node file`: npx links a project's own bin once per checkout path and reuses that link on a fresh
// clone at the same path, so the build must leave the file executable (CI failed on this once).
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FARKAS_BIN } from './testing/farkas-bin.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

test('the bin file named in package.json is executable and runs as a program', (t) => {
  const bin = FARKAS_BIN;
  t.true((statSync(bin).mode & 0o111) !== 0, `${bin} is not executable`);
  const run = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  t.is(run.error, undefined);
  t.is(run.status, 0, run.stderr);
  t.regex(run.stdout, /\d+\.\d+\.\d+/);
});

test('the bin of earlier versions (tsc\'s dist/cli/main.js) stays executable: npx may still link to it', (t) => {
  const earlier = join(ROOT, 'dist', 'cli', 'main.js');
  t.true((statSync(earlier).mode & 0o111) !== 0, `${earlier} is not executable`);
  const run = spawnSync(earlier, ['--version'], { encoding: 'utf8' });
  t.is(run.status, 0, run.stderr);
});

test('the published package holds no tests and no test helpers', (t) => {
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
  t.is(pack.status, 0, pack.stderr);
  const files = (JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  t.true(files.includes('dist/bin/main.js'));
  t.true(files.includes('benchmarks/paper/fig1.c')); // the README's example
  t.deepEqual(files.filter((f) => /\.test\.|(^|\/)testing\//.test(f)), []);
});

test('every dependency in package.json is imported by the code the package ships', (t) => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const shipped = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : shipped(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [readFileSync(path, 'utf8')] : [];
  });
  const sources = [...shipped(join(ROOT, 'lib')), ...shipped(join(ROOT, 'cli'))];
  // An import, a dynamic import or a resolved path of the package or of a file inside it.
  const used = (name: string): boolean => sources.some((text) => new RegExp(`['"]${name.replace(/[/.-]/g, '\\$&')}(/[^'"]*)?['"]`).test(text));
  const deps = Object.keys(manifest.dependencies);
  t.true(deps.length >= 5, deps.join(', '));
  t.deepEqual(deps.filter((d) => !used(d)), []);
});
