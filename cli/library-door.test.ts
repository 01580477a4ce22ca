// The CLI reaches the library only through its public door, lib/index.ts, which is what the package
// exports under its name: so everything a command does is available to a program that imports
// 'farkas' (issue 21). Tests may reach deeper; production files of cli/ may not. The second door,
// lib/start.ts ('farkas/start'), holds what the CLI calls before it loads the library; lib/index.ts
// exports it too.
import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'cli');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const IMPORT = /^import (type )?\{([^}]*)\} from '((?:\.\.\/)+lib\/[^']+)';$/gm;
const ANY_LIB_IMPORT = /from '((?:\.\.\/)+lib\/[^']+)'/g;

const DOORS = ['/lib/index.js', '/lib/start.js'];

test('cli/ imports lib only through lib/index.ts (or lib/start.ts)', (t) => {
  const files = sourceFiles(CLI);
  t.true(files.length > 30, `${files.length} files read`);
  const deep = files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(ANY_LIB_IMPORT)].filter((m) => !DOORS.some((door) => m[1]!.endsWith(door))).map((m) => `${relative(ROOT, file)}: ${m[1]}`),
  );
  t.deepEqual(deep, []);
});

test("every value the CLI takes from the library is exported by the package 'farkas'", async (t) => {
  // By the package's name, as a user's program would (resolved at run time through package.json's
  // "exports"; a variable, so the compiler does not look for the built declarations).
  const packageName = 'farkas';
  const farkas = (await import(packageName)) as Record<string, unknown>;
  const values = new Set<string>();
  for (const file of sourceFiles(CLI)) {
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      if (m[1]) continue; // `import type { … }`: types are checked by the compiler
      for (const part of m[2]!.split(',').map((p) => p.trim())) {
        if (part === '' || part.startsWith('type ')) continue;
        values.add(part.split(' as ')[0]!.trim());
      }
    }
  }
  t.true(values.size > 20 && values.has('ANALYSES') && values.has('verifyPortfolio'), [...values].join(', '));
  const missing = [...values].filter((name) => farkas[name] === undefined);
  t.deepEqual(missing, []);
});
