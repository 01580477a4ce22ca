import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import { runProgram } from '../interpreter/index.js';
import * as F from '../ir/formula.js';
import { withBlockingAsFailure } from '../conditions/instrument.js';
import { nondetFixedByParameters, nondetStreamOf } from '../conditions/nondet-inputs.js';
import { termination } from './termination.js';
import { phasedCandidates, rankLoops, rankingCandidates, withRankingChecks, type Phase } from './ranking.js';
import { backEdges, loopsOf, naturalLoop } from '../vc/loops.js';
import * as L from '../ir/linear.js';
import { Problem } from '../problem/prepare.js';
import { resolveSettings } from '../settings.js';

const HEADER = 'extern int __VERIFIER_nondet_int(void); extern void abort(void); extern void __VERIFIER_assert(int);\n';
const lower = (body: string) => parseProgram(HEADER + body, 't.c', { property: 'termination' });
const values = (o: Record<string, number>) => new Map(Object.entries(o).map(([k, v]) => [k, BigInt(v)] as [string, bigint]));

test('nondet fixed by parameters: a read in a loop and a * choice take one value each, and a run replays on the original', (t) => {
  const program = lower(`int main() {
    int x = __VERIFIER_nondet_int();
    int s = 0;
    while (x > 0) {
      int d = __VERIFIER_nondet_int();
      if (*) s = s + d; else s = s - 1;
      x = x - 1;
    }
    return s;
  }`);
  const fixed = nondetFixedByParameters(program, 'main');
  t.deepEqual(fixed.inputs.map((i) => [i.parameter, i.target === '*' ? '*' : 'read']), [['nondet_1', 'read'], ['nondet_2', 'read'], ['nondet_3', '*']]);
  t.false(fixed.program.procedures.get('main')!.locations.some((l) => l.choice));
  const run = runProgram(fixed.program, { entry: 'main', inputs: values({ nondet_1: 3, nondet_2: 5, nondet_3: 1 }), nondet: [], nondetDefault: null, recordTrace: true });
  t.is(run.outcome.kind, 'exit');
  const stream = nondetStreamOf(fixed, 'main', run);
  // x once, then d and the choice on each of the three iterations: every visit takes the same values.
  t.deepEqual(stream, [3n, 5n, 1n, 5n, 1n, 5n, 1n].map(BigInt));
  const original = runProgram(program, { entry: 'main', inputs: new Map(), nondet: stream, nondetDefault: null });
  t.deepEqual(original.outcome, run.outcome);
  t.true(original.outcome.kind === 'exit' && original.outcome.returnValue === 15n);
});

test('blocking as failure: abort() in a loop fails an assertion, a branch gets no extra edge, a run that goes on still does', (t) => {
  const program = lower(`int f(int x) {
    while (x >= 0) {
      if (x > 10) abort();
      x = 5;
    }
    return x;
  }`);
  const blocked = withBlockingAsFailure(program);
  const run = (x: number) => runProgram(blocked, { entry: 'f', inputs: values({ x }), nondet: [], nondetDefault: 0n, maxSteps: 500 }).outcome.kind;
  t.is(run(11), 'assertion-failed');
  t.is(run(3), 'step-limit');
  t.is(run(-1), 'exit');
  // Complementary branches gain no edge (an addition would: its overflow premise can block a run).
  const branches = lower('int g(int x) { if (x > 0) x = 1; else x = 2; while (x < 5) { if (x == 1) x = 7; else x = 9; } return x; }');
  t.is(withBlockingAsFailure(branches).procedures.get('g')!.edges.length, branches.procedures.get('g')!.edges.length);
});

test('blocking as failure: the assumption that defines a ghost quotient is not a place where a run blocks', (t) => {
  const program = lower('int f(int x) { int y = 0; while (y < 1000) { y = y + x / 3 + 1; } return y; }');
  const blocked = withBlockingAsFailure(program);
  for (const x of [-7, 0, 5, 29]) {
    const original = runProgram(program, { entry: 'f', inputs: values({ x }), nondet: [], nondetDefault: 0n, maxSteps: 5000 });
    const rewritten = runProgram(blocked, { entry: 'f', inputs: values({ x }), nondet: [], nondetDefault: 0n, maxSteps: 5000 });
    t.is(rewritten.outcome.kind, original.outcome.kind, `x = ${x}`);
  }
});

test('termination: a counting loop over a nondet bound terminates, with its bound', async (t) => {
  const r = await termination(Problem.of(lower('int main() { int n = __VERIFIER_nondet_int(); int i = 0; while (i < n) i++; return i; }')), resolveSettings({ timeoutMs: 120_000 }));
  t.is(r.verdict, 'terminates', r.reason);
  t.is(r.bounds?.length, 1);
  t.true(r.bounds!.every((b) => b.certified));
});

test('termination: a failing assertion ends the run', async (t) => {
  const r = await termination(Problem.of(lower('int main() { int x = __VERIFIER_nondet_int(); while (x > 0) { __VERIFIER_assert(x < 0); } return 0; }')), resolveSettings({ timeoutMs: 120_000 }));
  t.is(r.verdict, 'terminates', r.reason);
});

test('termination: a loop that aborts above 10 runs for ever below it; the recurrent condition leaves the aborting inputs out', async (t) => {
  const program = lower('int main() { int x = __VERIFIER_nondet_int(); while (x >= 0) { if (x > 10) abort(); x = 5; } return 0; }');
  const r = await termination(Problem.of(program), resolveSettings({ timeoutMs: 180_000 }));
  t.is(r.verdict, 'non-terminating', r.reason);
  const condition = r.endless!.condition.formula;
  const inside = (v: number) => F.evaluate(condition, (name) => (name === 'nondet_1' ? BigInt(v) : 0n));
  t.false(inside(11));
  t.false(inside(-1));
  // The run shown is the original program's, fed the nondet values reported.
  const run = runProgram(program, { entry: 'main', inputs: r.endless!.input, nondet: r.endless!.nondet, nondetDefault: null, maxSteps: r.endless!.steps });
  t.is(run.outcome.kind, 'step-limit');
  const value = r.endless!.nondet[0]!;
  t.true(value >= 0n && value <= 10n);
});

test('termination: while (*) does not terminate: the choice is fixed to go on', async (t) => {
  const r = await termination(Problem.of(lower('int main() { int x = 0; while (__VERIFIER_nondet_int()) { x = 1 - x; } return x; }')), resolveSettings({ timeoutMs: 180_000 }));
  t.is(r.verdict, 'non-terminating', r.reason);
  t.true(r.endless!.nondet.every((v) => v !== 0n));
});

test('termination: a loop too long to count by runs is ranked by its exit condition', async (t) => {
  const program = lower('int main() { unsigned int x = 0; while (x < 0x0fffffff) { x = x + 2; } return 0; }');
  const r = await termination(Problem.of(program), resolveSettings({ timeoutMs: 180_000 }));
  t.is(r.verdict, 'terminates', r.reason);
  t.deepEqual(r.ranked?.map((l) => l.ranking), ['-x + 268435454']);
});

test('ranking checks: the instrumented program fails on a run where the candidate does not fall, and not where it does', (t) => {
  const program = lower('int f(int x) { while (x < 100) { x = x + 3; } return x; }');
  const proc = program.procedures.get('f')!;
  const back = backEdges(proc);
  const [header] = loopsOf(proc);
  const body = naturalLoop(proc, header!, back);
  const candidates = rankingCandidates(proc, body);
  t.deepEqual(candidates.map((c) => L.toC(c)), ['-x + 99', 'x - 100']);
  const run = (r: L.Linear) => runProgram(withRankingChecks(program, 'f', header!, body, back, [{ cond: F.TRUE, r }]), { entry: 'f', inputs: values({ x: 5 }), nondet: [], nondetDefault: 0n }).outcome.kind;
  t.is(run(candidates[0]!), 'exit');
  t.is(run(candidates[1]!), 'assertion-failed');
});

test('ranking checks measure r at the head: a first statement that raises r by what the rest lowers it is no ranking', async (t) => {
  // x stays where it started for ever. Measured after `x = x + 2` on entry and after `x = x - 2` on
  // the back edge, r = x seemed to fall by 2 each iteration, and termination was claimed.
  const program = lower(`extern void __VERIFIER_assume(int);
    int main() { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x >= 0 && x < 1000);
      while (1) { x = x + 2; if (x < 0) break; x = x - 2; } return 0; }`);
  const proc = program.procedures.get('main')!;
  const back = backEdges(proc);
  const [header] = loopsOf(proc);
  const ghost = withRankingChecks(program, 'main', header!, naturalLoop(proc, header!, back), back, [{ cond: F.TRUE, r: L.variable('x') }]);
  t.is(runProgram(ghost, { entry: 'main', inputs: new Map(), nondet: [5n], nondetDefault: 0n, maxSteps: 1000 }).outcome.kind, 'assertion-failed');
  const r = await termination(Problem.of(program), resolveSettings({ timeoutMs: 120_000 }));
  t.not(r.verdict, 'terminates', JSON.stringify(r.ranked));
});

test('ranking candidates: a break counts with the test before it', (t) => {
  const program = lower('int f(int x) { while (1) { if (x > 100) break; x = x + 1; } return x; }');
  const proc = program.procedures.get('f')!;
  const back = backEdges(proc);
  const [header] = loopsOf(proc);
  const candidates = rankingCandidates(proc, naturalLoop(proc, header!, back)).map((c) => L.toC(c));
  t.true(candidates.includes('-x + 100'), candidates.join(', '));
});

test('multiphase ranking: y while y >= 0, then x - 1 ranks x = x + y; y = y - 1, and the checks fail where a phase is wrong', async (t) => {
  const program = lower('int f(int x, int y) { while (x > 0) { x = x + y; y = y - 1; } return 0; }');
  const proc = program.procedures.get('f')!;
  const back = backEdges(proc);
  const [header] = loopsOf(proc);
  const body = naturalLoop(proc, header!, back);
  const texts = phasedCandidates(proc, body).map((phases) => phases.map((p) => `${F.toC(p.cond)}: ${L.toC(p.r)}`).join('; '));
  t.true(texts.includes('y >= 0: y; 1: x - 1'), texts.slice(0, 12).join(' | '));
  const run = (phases: Phase[], x: number, y: number) => runProgram(withRankingChecks(program, 'f', header!, body, back, phases), { entry: 'f', inputs: values({ x, y }), nondet: [], nondetDefault: 0n }).outcome.kind;
  const x1 = L.addConstant(L.variable('x'), -1n);
  const right: Phase[] = [{ cond: F.geqZero(L.variable('y')), r: L.variable('y') }, { cond: F.TRUE, r: x1 }];
  t.is(run(right, 10, 5), 'exit');
  t.is(run(right, 3, -4), 'exit');
  // x - 1 alone does not fall while y > 0, and -y (while y <= 0) rises as y falls.
  t.is(run([{ cond: F.TRUE, r: x1 }], 10, 5), 'assertion-failed');
  t.is(run([{ cond: F.geqZero(L.variable('y', -1n)), r: L.variable('y', -1n) }, { cond: F.TRUE, r: x1 }], 10, -1), 'assertion-failed');
  const ranked = await rankLoops(program, 'f', [], resolveSettings({ timeoutMs: 60_000 }));
  t.true(ranked.complete, ranked.reason);
  t.is(ranked.ranked[0]!.ranking, 'y while y >= 0, then x - 1');
});

test("termination: the program's own assume after a read is kept: runs it blocks are not in the recurrent condition", async (t) => {
  const program = lower('extern void __VERIFIER_assume(int);\nint main() { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x > 5); while (x > 0) { x = 7; } return 0; }');
  const fixed = nondetFixedByParameters(program, 'main');
  t.true(fixed.program.procedures.get('main')!.edges.some((e) => e.stmt.kind === 'assume' && F.toC(e.stmt.cond) === 'x >= 6'));
  const r = await termination(Problem.of(program), resolveSettings({ timeoutMs: 180_000 }));
  t.is(r.verdict, 'non-terminating', r.reason);
  const inside = (v: number) => F.evaluate(r.endless!.condition.formula, (name) => (name === 'nondet_1' ? BigInt(v) : 0n));
  t.false(inside(0));
  t.false(inside(5));
});
