// A Problem is prepared once per program and function, and handed to every layer that analyses it.
import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import { InputError } from '../diagnostics.js';
import { withFaultForTests } from '../ir/faults.js';
import { PathExplosionError } from '../vc/cutset.js';
import { AnalysisUnsupported, prepareAnalysis, Problem } from './prepare.js';

const SOURCE = 'int g(int x) { return x + 1; }\nvoid f(int n) { int i = 0; while (i < n) i = g(i); assert(i >= 0); }\nint r(int n) { if (n <= 0) return 0; return r(n - 1) + 1; }\nvoid h(int n) { assert(r(n) >= 0); }\n';

test('the same program and function give the same problem: one resolution, one inlining, one analysis per cut-set', (t) => {
  const program = parseProgram(SOURCE, 'p.c');
  const problem = Problem.of(program, 'f');
  t.is(Problem.of(program, 'f'), problem);
  t.is(problem.function, 'f');
  t.is(problem.inlined, problem.inlined);
  t.false(problem.needsSummaries);
  t.false(problem.inlined.program.procedures.get('f')!.edges.some((e) => e.stmt.kind === 'call'));
  t.is(problem.analysis('paths'), prepareAnalysis(program, 'f', 'paths'));
  t.not(problem.analysis('headers'), problem.analysis('paths'));
  // Another program object with the same text is another problem (programs are values once built).
  t.not(Problem.of(parseProgram(SOURCE, 'p.c'), 'f'), problem);
});

test('a bad function name is the user\'s input error, raised when the problem is made', (t) => {
  const program = parseProgram(SOURCE, 'p.c');
  const error = t.throws(() => Problem.of(program, 'nope'), { instanceOf: InputError });
  t.regex(error?.message ?? '', /no function named 'nope'/);
});

test('an analysis the program does not support throws the same error on every call', (t) => {
  const problem = Problem.of(parseProgram(SOURCE, 'p.c'), 'h');
  t.true(problem.needsSummaries);
  const first = t.throws(() => problem.analysis('paths'), { instanceOf: AnalysisUnsupported });
  const again = t.throws(() => problem.analysis('paths'), { instanceOf: AnalysisUnsupported });
  t.is(again, first);
});

test('an analysis held to fewer paths is its own: over them it throws, and the full analysis is unchanged', (t) => {
  // Three ifs in the loop body: 8 paths around the loop at its header, and more to and from it.
  const source = 'void k(int n, int a, int b, int c) { int i = 0, s = 0; while (i < n) { if (a > i) s++; if (b > i) s++; if (c > i) s++; i++; } assert(s >= 0); }\n';
  const problem = Problem.of(parseProgram(source, 'k.c'), 'k');
  const full = problem.analysis('headers');
  t.true(full.vcs.length > 8, `${full.vcs.length} VCs`);
  const error = t.throws(() => problem.analysis('headers', 4), { instanceOf: PathExplosionError });
  t.regex(error?.message ?? '', /4/);
  t.is(problem.analysis('headers'), full);
  t.is(problem.analysis('headers', 100), problem.analysis('headers', 100));
  t.is(problem.analysis('headers', 100).vcs.length, full.vcs.length);
});

test('a program a test marks with a transformation fault gets a problem of its own, prepared with the fault', (t) => {
  const program = parseProgram(SOURCE, 'p.c');
  const clean = Problem.of(program, 'f');
  const faulty = Problem.of(withFaultForTests(program, 'assertions-dropped'), 'f');
  t.not(faulty, clean);
  const asserts = (p: Problem): number => p.inlined.program.procedures.get('f')!.edges.filter((e) => e.stmt.kind === 'assert').length;
  t.true(asserts(clean) > 0);
  t.is(asserts(faulty), 0);
  // The mark goes with every program transformed from the marked one.
  t.is(faulty.inlined.program.faultForTests, 'assertions-dropped');
});
