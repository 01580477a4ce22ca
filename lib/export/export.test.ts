import test from 'ava';
import { readFileSync } from 'node:fs';
import { parseProgram } from '../frontend/index.js';
import { getZ3, shutdownZ3 } from '../sat/z3-context.js';
import { createBackend, parseDimacs } from '../sat/index.js';
import { InputError } from '../diagnostics.js';
import { exportProblem } from './index.js';
import { solveHorn } from './horn-solver.js';

test.after.always(async () => {
  await shutdownZ3();
});

const program = (file: string) => parseProgram(readFileSync(file, 'utf8'), file);
const FIG1 = 'benchmarks/paper/fig1.c';

test('CHC of fig1: HORN logic, one predicate per loop, a query (=> … false); Spacer answers sat (safe)', async (t) => {
  const chc = exportProblem(program(FIG1), 'chc');
  const lines = chc.trim().split('\n').filter((l) => !l.startsWith(';'));
  t.is(lines[0], '(set-logic HORN)');
  t.deepEqual(lines.filter((l) => l.startsWith('(declare-fun')), ['(declare-fun inv_1 (Int Int) Bool)']);
  t.deepEqual(lines.slice(-2), ['(check-sat)', '(exit)']);
  const rules = lines.filter((l) => l.startsWith('(assert'));
  t.is(rules.length, 3); // initiation, consecution, the assertion after the loop
  t.is(rules.filter((r) => / false\)+$/.test(r)).length, 1);
  t.is((await solveHorn(chc, { timeLimitMs: 60_000 })).status, 'sat');
});

test('CHC of unsafe programs: Spacer answers unsat, also with nondet values inside the loop', async (t) => {
  t.is((await solveHorn(exportProblem(program('benchmarks/literature/off-by-one.c'), 'chc'), { timeLimitMs: 60_000 })).status, 'unsat');
  const nondetLoop = parseProgram('int main() { int x = 0; int n = __VERIFIER_nondet_int(); while (x < n) { int d = __VERIFIER_nondet_int(); assume(d >= 1 && d <= 2); x = x + d; } assert(x != 5); return 0; }\n', 'n.c');
  t.is((await solveHorn(exportProblem(nondetLoop, 'chc'), { timeLimitMs: 60_000 })).status, 'unsat');
  const safeNondet = parseProgram('int main() { int x = 0; int n = __VERIFIER_nondet_int(); while (x < n) { int d = __VERIFIER_nondet_int(); assume(d >= 1 && d <= 2); x = x + d; } assert(x >= 0); return 0; }\n', 'n.c');
  t.is((await solveHorn(exportProblem(safeNondet, 'chc', { cutset: 'paths' }), { timeLimitMs: 60_000 })).status, 'sat');
});

test('SMT export of fig1 step 1: QF_NIA over bounded unknowns; z3 finds a model (the engine finds one at step 1 too)', async (t) => {
  const smt = exportProblem(program(FIG1), 'smt');
  t.regex(smt, /^; farkas: .*step 1/);
  t.regex(smt, /\(set-logic QF_NIA\)/);
  t.regex(smt, /\(assert \(and \(<= \(- 4\) \|I\d+\.0\.0\.x\|\) \(<= \|I\d+\.0\.0\.x\| 3\)\)\)/); // 3-bit coefficients
  const z3 = await getZ3();
  const ctx = new z3.Context('smt-export-test');
  const solver = new ctx.Solver();
  solver.set('timeout', 60_000);
  solver.fromString(smt.replace(/^\(set-logic .*\)$/m, '').replace(/^\((check-sat|get-model|exit)\)$/gm, ''));
  t.is(await solver.check(), 'sat');
});

test('DIMACS export of fig1 step 1 parses back and is satisfiable; a step the schedule does not have is an input error', async (t) => {
  const text = exportProblem(program(FIG1), 'dimacs');
  const cnf = parseDimacs(text);
  t.true(cnf.clauses.length > 100);
  const backend = createBackend('minisat');
  const result = await backend.solve(cnf, { timeLimitMs: 60_000 });
  t.is(result.status, 'sat');
  t.throws(() => exportProblem(program(FIG1), 'dimacs', { step: 99 }), { instanceOf: InputError, message: /has \d+ steps, not 99/ });
  t.throws(() => exportProblem(program('benchmarks/interproc/sum.c'), 'chc'), { instanceOf: InputError, message: /unsupported: --emit chc: recursive/ });
});
