// The folders of lib/ in the order docs/layout.md gives them: every import of a source file goes to
// a folder (or top-level file) above its own in that table, or stays in its own. So data flows one
// way, no two folders import each other, and the documentation says how the code is cut.
import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LIB = join(ROOT, 'lib');

/** The table's rows, in order: `lib/NAME/` or `lib/NAME.ts`, as NAME or NAME.ts. */
function layoutOrder(): string[] {
  const text = readFileSync(join(ROOT, 'docs', 'layout.md'), 'utf8');
  return [...text.matchAll(/^\| \d+ \| `lib\/([^`]+?)\/?` \|/gm)].map((m) => m[1]!);
}

/** Source files of lib/ (not tests, not test support). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The row a file of lib/ belongs to: its folder, or itself at the top of lib/. */
const rowOf = (file: string): string => relative(LIB, file).split('/')[0]!.replace(/\.js$/, '.ts');

test('every import of lib/ goes to a folder above its own in docs/layout.md', (t) => {
  const order = layoutOrder();
  t.true(order.length > 20, order.join(', '));
  const rank = new Map(order.map((name, k) => [name, k]));
  const files = sources(LIB);
  // Every folder and top-level file has its row.
  const rows = new Set(files.map(rowOf));
  t.deepEqual([...rows].filter((r) => !rank.has(r)).sort(), [], 'folders or files of lib/ missing from the table');
  const upward: string[] = [];
  for (const file of files) {
    const from = rowOf(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(file), m[1]!);
      if (!target.startsWith(LIB)) continue;
      const to = rowOf(target);
      if (to !== from && rank.get(to)! >= rank.get(from)!) upward.push(`${relative(ROOT, file)} imports ${m[1]} (${to} is not above ${from})`);
    }
  }
  t.deepEqual(upward, []);
});
