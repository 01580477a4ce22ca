// How the code is cut. The folders of lib/ in the order docs/layout.md gives them: every import of a
// source file goes to a folder (or top-level file) above its own in that table, or stays in its own,
// so data flows one way, no two folders import each other, and the documentation says how the code
// is cut. And no function of lib/ or cli/ is longer than a reader can hold (MAX_FUNCTION_LINES).
import test from 'ava';
import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LIB = join(ROOT, 'lib');
const CLI = join(ROOT, 'cli');

/** Lines of the longest function a source file of lib/ or cli/ may hold (its doc comment not counted). */
const MAX_FUNCTION_LINES = 150;

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

test('no function of lib/ or cli/ is longer than MAX_FUNCTION_LINES lines', (t) => {
  const files = [...sources(LIB), ...sources(CLI)];
  t.true(files.length > 200, `${files.length} files read`);
  const long: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (last - first + 1 > MAX_FUNCTION_LINES) long.push(`${relative(ROOT, file)}:${first + 1}: ${last - first + 1} lines`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  t.deepEqual(long, []);
});
