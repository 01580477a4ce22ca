// Cross-checking: agreement, loud disagreement (with a deliberately wrong engine), and the
// strength comparison of invariants decided by z3.
import test from 'ava';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { parseProgram } from '../frontend/index.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { crossCheck, formatCrossCheck, strength } from './cross-check.js';
import { CONSTRAINT_ENGINE, engineByName, type Engine } from '../engines/index.js';
import { Problem } from '../problem/prepare.js';
import { resolveSettings } from '../settings.js';

test.after.always(() => shutdownZ3());

const x = L.variable('x');
const y = L.variable('y');
const ge = (a: L.Linear, b: L.Linear): F.Formula => F.geqZero(L.sub(a, b));

test('strength: stronger, weaker, equivalent, incomparable', async (t) => {
  t.is(await strength(ge(x, L.constant(1)), ge(x, L.constant(0)), 5_000), 'stronger');
  t.is(await strength(ge(x, L.constant(0)), ge(x, L.constant(1)), 5_000), 'weaker');
  // Over the integers x > 0 and x >= 1 are the same set.
  t.is(await strength(F.not(ge(L.constant(0), x)), ge(x, L.constant(1)), 5_000), 'equivalent');
  t.is(await strength(ge(x, L.constant(0)), ge(y, L.constant(0)), 5_000), 'incomparable');
});

const COUNT = 'int main() { int x = 0; int y = 0; while (x < 10) { x = x + 1; y = y + 2; } assert(y == 2 * x); return 0; }';

/** The registry's engines by name, each wrapped to count its runs. */
function counted(...names: string[]): { engines: Engine[]; runs: Map<string, number> } {
  const runs = new Map<string, number>(names.map((n) => [n, 0]));
  const engines = names.map((name): Engine => {
    const engine = engineByName(name)!;
    return { ...engine, run: (p, o) => {
      runs.set(name, runs.get(name)! + 1);
      return engine.run(p, o);
    } };
  });
  return { engines, runs };
}

test('every engine agrees on a safe loop; invariants compared at the loop head', async (t) => {
  const program = parseProgram(COUNT, 'count.c');
  const r = await crossCheck(Problem.of(program), resolveSettings(), { engines: [engineByName(CONSTRAINT_ENGINE)!, engineByName('lazy-annotation')!] });
  t.deepEqual(r.rows.map((row) => row.engine), ['constraints', 'lazy-annotation']);
  t.deepEqual(r.disagreements, []);
  t.is(r.consensus, 'safe');
  t.true(r.rows.every((row) => row.verdict === 'safe' && row.certificate === 'certified'));
  t.is(r.comparisons.length, 1);
  t.is(r.comparisons[0]!.line, 1);
  t.is(r.comparisons[0]!.engine, 'lazy-annotation');
  t.not(r.comparisons[0]!.strength, 'unknown');
});

test('a precomputed result is not computed again: the constraint engine does not run, the others do, each announced', async (t) => {
  const program = parseProgram(COUNT, 'count.c');
  const precomputed = await engineByName(CONSTRAINT_ENGINE)!.run(Problem.of(program), resolveSettings());
  const { engines, runs } = counted(CONSTRAINT_ENGINE, 'lazy-annotation');
  const events: string[] = [];
  const r = await crossCheck(Problem.of(program), resolveSettings(), { engines, results: new Map([[CONSTRAINT_ENGINE, precomputed]]), onEngineStarted: (engine) => events.push(`started ${engine}`), onEngineFinished: (row) => events.push(`finished ${row.engine}: ${row.verdict}`) });
  t.deepEqual([...runs], [[CONSTRAINT_ENGINE, 0], ['lazy-annotation', 1]]);
  t.deepEqual(events, ['started lazy-annotation', 'finished lazy-annotation: safe']);
  t.is(r.rows[0]!.result, precomputed);
  t.deepEqual(r.rows.map((row) => row.engine), ['constraints', 'lazy-annotation']);
  t.is(r.consensus, 'safe');
  // The precomputed answer is still the reference of the comparison.
  t.is(r.comparisons.length, 1);
});

test('an engine that throws: reported to onEngineFailed and left out while the next one runs; without the handler the cross-check fails', async (t) => {
  const program = parseProgram(COUNT, 'count.c');
  const broken: Engine = { name: 'broken', description: 'throws, for this test', run: () => Promise.reject(new Error('broken on purpose')) };
  const failed: string[] = [];
  const r = await crossCheck(Problem.of(program), resolveSettings(), { engines: [broken, engineByName('lazy-annotation')!], onEngineFailed: (engine, e) => failed.push(`${engine}: ${(e as Error).message}`) });
  t.deepEqual(failed, ['broken: broken on purpose']);
  t.deepEqual(r.rows.map((row) => row.engine), ['lazy-annotation']);
  // No constraint engine among the rows: nothing to compare with, the function is the others'.
  t.deepEqual(r.comparisons, []);
  t.is(r.function, 'main');
  await t.throwsAsync(crossCheck(Problem.of(program), resolveSettings(), { engines: [broken] }), { message: 'broken on purpose' });
});

test('an engine that contradicts a certified verdict is reported loudly', async (t) => {
  const program = parseProgram(COUNT, 'count.c');
  // A deliberately broken engine: claims a counterexample without one.
  const lazyAnnotation = engineByName('lazy-annotation')!;
  const liar: Engine = { name: 'liar', description: 'lazy annotation with its verdict turned', run: async (p, o) => ({ ...(await lazyAnnotation.run(p, o)), verdict: 'unsafe' }) };
  const r = await crossCheck(Problem.of(program), resolveSettings(), { engines: [engineByName(CONSTRAINT_ENGINE)!, liar] });
  t.is(r.consensus, null);
  t.deepEqual(r.disagreements, ['constraints says safe but liar says unsafe']);
  t.regex(formatCrossCheck('count.c', r), /DISAGREEMENT/);
});
