import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { parseProgram } from '../frontend/index.js';
import { verify } from '../engines/constraint/verify.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { readableInvariants, withoutImpliedConjuncts } from './readable.js';

test.after.always(async () => {
  await shutdownZ3();
});

/** sum of k*v + c >= 0 */
const ge = (terms: Record<string, number>, c: number): Formula => F.geqZero(L.fromTerms(Object.entries(terms).map(([v, k]) => [v, BigInt(k)]), BigInt(c)));
const x100 = ge({ x: -1 }, 100); // x <= 100
const y100 = ge({ y: -1 }, 100);
const sum200 = ge({ x: -1, y: -1 }, 200);
const xy = ge({ x: 1, y: -1 }, 0); // x >= y
const wide = ge({ y: 1, x: -2 }, 294910); // y + 294910 >= 2 * x
const xle0 = ge({ x: -1 }, 0);

test('readable: a conjunct the others imply over the rationals goes, the most complex first', (t) => {
  // x + y <= 200 follows from the two bounds; then y <= 100 from x <= 100 and x >= y.
  t.is(F.toC(withoutImpliedConjuncts(F.and(x100, y100, sum200, xy))), F.toC(F.and(x100, xy)));
  // Nothing implied: unchanged, in the order written.
  t.is(F.toC(withoutImpliedConjuncts(F.and(xy, x100))), F.toC(F.and(xy, x100)));
  // Each disjunct on its own.
  t.is(F.toC(withoutImpliedConjuncts(F.or(F.and(x100, y100, xy), F.and(xle0, ge({ x: -1 }, 5))))), F.toC(F.or(F.and(x100, xy), xle0)));
});

test('readable: conjuncts are dropped only while the check validates the rest, within the number of checks', async (t) => {
  const invariants = new Map([[3, F.and(wide, xle0)], [5, ge({ z: 1 }, -7)]]);
  const asked: string[] = [];
  // A stand-in checker: the invariant at 3 must keep x <= 0.
  const certify = async (c: ReadonlyMap<number, Formula>) => {
    asked.push(F.toC(c.get(3)!));
    return F.toC(c.get(3)!).includes('x <= 0');
  };
  const readable = await readableInvariants(invariants, certify, 8);
  t.is(F.toC(readable.get(3)!), 'x <= 0');
  // A lone conjunct is not tried (without it the invariant would be true).
  t.is(F.toC(readable.get(5)!), 'z >= 7');
  // The two-variable conjunct was tried first, and x <= 0 alone would leave true: one check.
  t.deepEqual(asked, ['x <= 0']);
  const none = await readableInvariants(invariants, certify, 0);
  t.is(F.toC(none.get(3)!), 'y + 294910 >= 2 * x && x <= 0');
  // A check that rejects everything keeps everything.
  const kept = await readableInvariants(invariants, async () => false, 8);
  t.is(F.toC(kept.get(3)!), 'y + 294910 >= 2 * x && x <= 0');
});

// dist/lib/certify → repository root
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const svcomp = resolve(repoRoot, '..', 'shared', 'bench', 'svcomp');

/** Constants of the printed invariants, in absolute value. */
const constants = (expressions: readonly string[]): bigint[] => expressions.flatMap((e) => [...e.matchAll(/\d+/g)].map((m) => BigInt(m[0])));

for (const [file, expected] of [
  ['benchmarks/paper/fig1.c', null],
  ['loop-lit/gsv2008.i', 'x <= 0'],
  ['loop-lit/jm2006.i', 'i + y == j + x'],
  ['loop-invgen/id_build.i', null],
] as const) {
  test(`readable: ${file} is proved with invariants whose constants are at most 10`, async (t) => {
    const path = file.startsWith('benchmarks/') ? resolve(repoRoot, file) : resolve(svcomp, file);
    if (!existsSync(path)) {
      t.log(`${path} is absent: skipped`);
      t.pass();
      return;
    }
    const result = await verify(parseProgram(readFileSync(path, 'utf8'), path), { timeoutMs: 60_000 });
    t.is(result.verdict, 'safe', result.reason);
    const shown = result.invariants.map((i) => i.expression);
    for (const k of constants(shown)) t.true(k <= 10n, shown.join('; '));
    if (expected !== null) t.true(shown.includes(expected), shown.join('; '));
  });
}
