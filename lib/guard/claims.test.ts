// The claim guard (issue 19) on every claim kind but loop bounds (bounds-guard.test.ts): each command is
// run with a transformation broken on purpose (lib/guard/faults.ts), so that its certificate proves a
// wrongly built procedure, and must throw ClaimContradicted instead of answering; and each guard is
// also handed a wrong claim written by hand. That right claims pass is shown by every other test of
// the commands, since each runs its guard before returning.
import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { verify } from '../index.js';
import { wp } from '../conditions/wp.js';
import { sp } from '../conditions/sp.js';
import { cex } from '../conditions/cex.js';
import { nonterm } from '../termination/nonterm.js';
import { engineByName } from '../engines/index.js';
import { witnessFor } from '../witness/index.js';
import type { ConditionAnswer } from '../conditions/types.js';
import { ClaimContradicted } from './claim.js';
import { withFaultForTests } from '../ir/faults.js';
import { guardSafe, guardSummaries } from './verify-guard.js';
import { guardFailingConditions, guardPostcondition, guardPreconditions, guardRecurrentSets } from './conditions-guard.js';
import { Problem } from '../problem/prepare.js';
import { resolveSettings } from '../settings.js';

test.after.always(() => shutdownZ3());

const x = L.variable('x');
const ge = (e: L.Linear, k: bigint) => F.geqZero(L.addConstant(e, -k)); // e >= k

function answer(formula: F.Formula, certified = true): ConditionAnswer {
  return { expression: F.toC(formula), formula, certified, invariants: [], neighbours: [], locallyOptimal: false };
}

/** An assertion that only x == 5 breaks: sampling may miss it, the guard's grid does not. */
const RARE = 'void f(int x) {\n  int y = x + 1;\n  assert(y != 6);\n}\n';
/** A counter from 0 with a copy: `i == j` at the loop head, `i == j + 1` once `i = 0` becomes `i = 1`. */
const COUNTER = 'void f(int n) {\n  int i = 0;\n  int j = 0;\n  while (i < n) {\n    i = i + 1;\n    j = j + 1;\n  }\n  assert(i >= j);\n}\n';

test('verify: with the assertions dropped from the prepared procedure, "safe" is stopped by a failing run', async (t) => {
  const program = parseProgram(RARE, 'rare.c');
  const error = await t.throwsAsync(verify(Problem.of(withFaultForTests(program, 'assertions-dropped')), resolveSettings({ timeoutMs: 60_000 })), { instanceOf: ClaimContradicted });
  t.is(error!.kind, 'safety proof');
  t.is(error!.input, 'x=5');
  t.is(error!.line, 3);
  t.regex(error!.message, /^a certified safety proof was contradicted by a run of the program: x=5 \(the assertion at line 3 fails\)$/);
});

test('verify: with a constant shifted in the prepared procedure, a wrong invariant is stopped', async (t) => {
  const program = parseProgram(COUNTER, 'counter.c');
  const right = await verify(Problem.of(program), resolveSettings({ timeoutMs: 60_000 }));
  t.is(right.verdict, 'safe');
  const error = await t.throwsAsync(verify(Problem.of(withFaultForTests(program, 'constant-shifted')), resolveSettings({ timeoutMs: 60_000 })), { instanceOf: ClaimContradicted });
  t.is(error!.kind, 'invariant');
  // The cut-point of the path cut-set is in the loop body, after the first iteration's increments
  // (the state shown is over the invariant's variables: the readable invariant is j + 1 == i alone).
  t.regex(error!.description, /^line 5: i = 0, j = 0 violates j \+ 1 == i/);
});

test('the interpolation engines: "safe" of a wrongly built model is stopped', async (t) => {
  const program = parseProgram(RARE, 'rare.c');
  for (const name of ['lazy-abstraction', 'symbolic', 'lazy-annotation'] as const) {
    const engine = engineByName(name)!;
    const error = await t.throwsAsync(engine.run(Problem.of(withFaultForTests(program, 'assertions-dropped')), resolveSettings({ timeoutMs: 60_000 })), { instanceOf: ClaimContradicted }, name);
    t.is(error!.kind, 'safety proof', name);
  }
});

test('wp: the precondition `1` of a wrongly built procedure is stopped', async (t) => {
  const program = parseProgram(RARE, 'rare.c');
  const error = await t.throwsAsync(wp(Problem.of(withFaultForTests(program, 'assertions-dropped')), resolveSettings({ timeoutMs: 60_000 })), { instanceOf: ClaimContradicted });
  t.is(error!.kind, 'precondition');
  t.is(error!.input, 'x=5');
});

test('sp: a postcondition of a wrongly built procedure is stopped', async (t) => {
  const program = parseProgram('void f(int n) {\n  int x = 5;\n  if (n > 0) x = x + 1;\n}\n', 'five.c');
  const right = await sp(Problem.of(program), resolveSettings({ timeoutMs: 60_000 }));
  t.true(right.postcondition?.certified);
  const error = await t.throwsAsync(sp(Problem.of(withFaultForTests(program, 'constant-shifted')), resolveSettings({ timeoutMs: 60_000 })), { instanceOf: ClaimContradicted });
  t.is(error!.kind, 'postcondition');
  t.regex(error!.description, /x = 5/);
});

test('cex and nonterm: conditions certified on a wrongly built procedure are stopped', async (t) => {
  const failing = parseProgram('void f(int x) {\n  assert(x < 5);\n}\n', 'lt5.c');
  const c = await t.throwsAsync(cex(Problem.of(withFaultForTests(failing, 'assertions-dropped')), resolveSettings({ timeoutMs: 60_000 })), { instanceOf: ClaimContradicted });
  // The wp search inside guards its own answer on the instrumented program first, or cex on the original.
  t.true(['precondition', 'failing condition'].includes(c!.kind), c!.kind);
  const looping = parseProgram('void f(int x) {\n  while (x > 0) { x = x + 1; }\n}\n', 'up.c');
  const n = await t.throwsAsync(nonterm(Problem.of(withFaultForTests(looping, 'assertions-dropped')), resolveSettings({ timeoutMs: 60_000 })), { instanceOf: ClaimContradicted });
  t.true(['precondition', 'non-termination condition'].includes(n!.kind), n!.kind);
});

test('witness: loop invariants that only the wrongly built procedure keeps are stopped before a witness is written', async (t) => {
  const program = parseProgram(COUNTER, 'counter.c');
  const result = await verify(Problem.of(program), resolveSettings({ timeoutMs: 60_000, cutset: 'headers' }));
  t.is(result.verdict, 'safe');
  t.is((await witnessFor({ program, file: 'counter.c', source: COUNTER, result })).kind, 'correctness');
  // The invariants of the program as the fault builds it (`i = 1`: same locations), proved for it.
  const shiftedSource = COUNTER.replace('int i = 0;', 'int i = 1;');
  const shifted = await verify(Problem.of(parseProgram(shiftedSource, 'counter.c')), resolveSettings({ timeoutMs: 60_000, cutset: 'headers' }));
  t.is(shifted.verdict, 'safe');
  // With the fault, the witness's own re-check (on the inlined program) accepts them: the guard must not.
  const error = await t.throwsAsync(witnessFor({ program: withFaultForTests(program, 'constant-shifted'), file: 'counter.c', source: COUNTER, result: shifted }), { instanceOf: ClaimContradicted });
  t.is(error!.kind, 'invariant');
  t.regex(error!.description, /^line 4: i = 0, j = 0 violates /);
});

// Wrong claims written by hand, one per guard.

test('guardSafe: an invariant false at the loop head and a failing assertion are contradicted', (t) => {
  const program = parseProgram(COUNTER, 'counter.c');
  const proc = program.procedures.get('f')!;
  const head = proc.locations.find((l) => l.loopHeader)!.id;
  const identity = { proc, original: proc.locations.map((l) => l.id) };
  const i = L.variable('i');
  const j = L.variable('j');
  t.notThrows(() => guardSafe(program, 'f', identity, new Map([[head, F.eqZero(L.sub(i, j))]])));
  const error = t.throws(() => guardSafe(program, 'f', identity, new Map([[head, ge(L.sub(i, j), 1n)]])), { instanceOf: ClaimContradicted });
  t.is(error!.message, 'a certified invariant was contradicted by a run of the program: n=0 (line 4: i = 0, j = 0 violates i >= j + 1)');
  // An invariant over a variable the original does not have (a ghost, a counter) is not a claim here.
  t.notThrows(() => guardSafe(program, 'f', identity, new Map([[head, ge(L.variable('c!ghost'), 1n)]])));
  const rare = parseProgram(RARE, 'rare.c');
  const f = rare.procedures.get('f')!;
  t.throws(() => guardSafe(rare, 'f', { proc: f, original: [] }, new Map()), { instanceOf: ClaimContradicted, message: /x=5 \(the assertion at line 3 fails\)/ });
});

test('guardSafe: "safe" for an assertion that one nondet value breaks is contradicted by the value solved from it', (t) => {
  // The grid runs read 0, the random ones values near zero: only x == 409 fails.
  const source = 'int main() { int x = __VERIFIER_nondet_int(); if (x > 0 && x < 100000) { assert(3 * x != 1227); } return 0; }\n';
  const program = parseProgram(source, 'times-three.c');
  const proc = program.procedures.get('main')!;
  t.throws(() => guardSafe(program, 'main', { proc, original: [] }, new Map()), { instanceOf: ClaimContradicted, message: /nondet 409 \(the assertion at line 1 fails\)/ });
});

test('guardSummaries: a post-condition the procedure does not keep is contradicted', (t) => {
  const program = parseProgram('int g(int n) {\n  if (n <= 0) return 0;\n  return g(n - 1) + 1;\n}\n', 'rec.c');
  const ret = L.variable('g!ret');
  const pair = (pre: F.Formula, post: F.Formula) => ({ pre: F.toC(pre), post: F.toC(post), preFormula: pre, postFormula: post });
  t.notThrows(() => guardSummaries(program, [{ procedure: 'g', pairs: [pair(ge(L.variable('n'), 0n), F.eqZero(L.sub(ret, L.variable('n'))))] }]));
  const error = t.throws(() => guardSummaries(program, [{ procedure: 'g', pairs: [pair(F.TRUE, ge(ret, 1n))] }]), { instanceOf: ClaimContradicted });
  t.is(error!.kind, 'procedure summary');
  t.is(error!.input, 'n=0');
});

test('guardPreconditions: a precondition admitting a failing input, and a witness that does not fail, are contradicted', (t) => {
  const program = parseProgram(RARE, 'rare.c');
  t.notThrows(() => guardPreconditions(program, 'f', [answer(F.not(F.eqZero(L.addConstant(x, -5n))))]));
  const error = t.throws(() => guardPreconditions(program, 'f', [answer(ge(x, 3n))]), { instanceOf: ClaimContradicted });
  t.is(error!.message, 'a certified precondition was contradicted by a run of the program: x=5 (under x >= 3 the assertion at line 3 fails)');
  // A guess (not certified) is not a claim.
  t.notThrows(() => guardPreconditions(program, 'f', [answer(ge(x, 3n), false)]));
  const refuted = { ...answer(ge(x, 6n)), neighbours: [{ expression: 'x >= 4', move: 'shift', input: new Map([['x', 4n]]), nondet: [], line: 3, replayed: true }] };
  t.throws(() => guardPreconditions(program, 'f', [refuted]), { instanceOf: ClaimContradicted, message: /certified witness .* x=4 / });
});

test('guardPostcondition: a postcondition a run leaves at the exit is contradicted', (t) => {
  const program = parseProgram('void f(int n) {\n  int x = 5;\n  if (n > 0) x = x + 1;\n}\n', 'five.c');
  const proc = program.procedures.get('f')!;
  const identity = { proc, original: proc.locations.map((l) => l.id) };
  t.notThrows(() => guardPostcondition(program, 'f', identity, proc.exit, answer(F.and(ge(x, 5n), ge(L.negate(x), -6n)))));
  const error = t.throws(() => guardPostcondition(program, 'f', identity, proc.exit, answer(ge(x, 6n))), { instanceOf: ClaimContradicted });
  t.is(error!.kind, 'postcondition');
  t.regex(error!.description, /x = 5 violates x >= 6/);
});

test('guardFailingConditions: a condition with a passing input, or whose own input passes, is contradicted', (t) => {
  const program = parseProgram('void f(int x) {\n  assert(x < 5);\n}\n', 'lt5.c');
  const claim = (f: F.Formula, input: bigint) => ({ answer: answer(f), input: new Map([['x', input]]), nondet: [] });
  t.notThrows(() => guardFailingConditions(program, 'f', [claim(ge(x, 5n), 7n)]));
  t.throws(() => guardFailingConditions(program, 'f', [claim(ge(x, 4n), 7n)]), { instanceOf: ClaimContradicted, message: /failing condition .*x=4 / });
  t.throws(() => guardFailingConditions(program, 'f', [claim(ge(x, 5n), 1n)]), { instanceOf: ClaimContradicted, message: /certified counterexample .*x=1 / });
});

test('guardRecurrentSets: a non-termination condition with an input whose run returns is contradicted', (t) => {
  const program = parseProgram('void f(int x) {\n  while (x > 0) { x = x + 1; }\n}\n', 'up.c');
  t.notThrows(() => guardRecurrentSets(program, 'f', [answer(ge(x, 1n))]));
  const error = t.throws(() => guardRecurrentSets(program, 'f', [answer(ge(x, 0n))]), { instanceOf: ClaimContradicted });
  t.is(error!.input, 'x=0');
  t.is(error!.kind, 'non-termination condition');
});
