// The command fuzzer in CI: a few random functions through every command show no disagreement with
// brute force, and each check flags a deliberately wrong claim (while passing the right one).
import test from 'ava';
import * as F from '../lib/ir/formula.js';
import * as L from '../lib/ir/linear.js';
import type { Formula } from '../lib/ir/formula.js';
import { parseProgram } from '../lib/frontend/index.js';
import { shutdownZ3 } from '../lib/sat/z3-context.js';
import { mulberry32 } from '../lib/random.js';
import { CommandProgramGenerator } from './fuzz/generate-commands.js';
import { NEEDLE_FAMILIES, NeedleGenerator, needleMismatches } from './fuzz/generate-needles.js';
import { bruteForce, checkCex, checkKnownFailures, checkLoopBounds, checkNonterm, checkSp, checkVerify, checkWp, streamBox, type KnownFailure } from './fuzz/commands.js';
import type { LoopBound } from '../lib/termination/bounds.js';
import { caseFile, fuzzCommands } from './command-fuzz.js';

test.after.always(() => shutdownZ3());

/** `sum of coefficient*variable + constant >= 0`. */
function geq(terms: Record<string, number>, constant: number): Formula {
  return F.geqZero(L.fromTerms(Object.entries(terms).map(([v, k]) => [v, BigInt(k)] as [string, bigint]), BigInt(constant)));
}

const claimed = (expression: string, formula: Formula) => ({ expression, formula, certified: true });

// Fails exactly when a >= 4 (x = 2a after the loop); the loop runs max(0, a) times.
const DOUBLING = `int f(int a) {
  int x = 0; int i = 0;
  i = 0; while (i < a) { x = x + 2; i = i + 1; }
  assert(x <= 6);
  return x;
}
`;
// Never returns when x >= 0 and a >= 0 (x = x + a forever); the loop then runs past any step limit.
const DRIFT = `int f(int x, int a) {
  while (x >= 0) { x = x + a; }
  return x;
}
`;

test('generated functions parse, have parameters, and the same seed gives the same functions', (t) => {
  const a = new CommandProgramGenerator(mulberry32(5));
  const b = new CommandProgramGenerator(mulberry32(5));
  for (let k = 0; k < 40; k++) {
    const g = a.program();
    t.deepEqual(g, b.program());
    const program = parseProgram(g.source, 'gen.c');
    t.is(program.entry, g.function);
    t.deepEqual(program.procedures.get(g.function)!.params, g.parameters);
    t.true(g.parameters.length >= 1 && g.parameters.length <= 3);
  }
});

test('a few random functions: no command disagrees with brute force', async (t) => {
  // Three functions of seed 1 on which every command answers quickly (safe and unsafe ones, loops
  // with bounds, failing conditions), so the claims checked do not hang on a loaded machine's timing.
  const summary = await fuzzCommands({ count: 53, only: [31, 44, 52], seed: 1, timeoutMs: 1500, engines: ['constraints', 'symbolic'] });
  t.is(summary.programs, 3);
  t.log([...summary.seen].map(([command, s]) => `${command}: ${s.claims} claims against ${s.runs} runs`).join('; '));
  t.deepEqual(summary.disagreeing.flatMap((d) => d.report.disagreements), []);
  // Every command answered every program (whatever the answer).
  for (const command of ['verify/constraints', 'verify/symbolic', 'wp', 'sp', 'bounds', 'cex', 'nonterm']) {
    t.is([...(summary.tally.get(command)?.values() ?? [])].reduce((a, b) => a + b, 0), 3, command);
  }
});

test('the box: runs from every input, failures and exit states recorded', (t) => {
  const program = parseProgram(DOUBLING, 'doubling.c');
  const box = bruteForce(program, 'f', { radius: 8, far: [16, 40] });
  t.is(box.runs.length, 21);
  // a = 4..8, 16, 40.
  t.is(box.runs.filter((r) => r.outcome.kind === 'assertion-failed').length, 7);
  const three = box.runs.find((r) => r.input.get('a') === 3n)!;
  t.is(three.exitState?.get('x'), 6n);
  t.deepEqual(three.iterations, [3n]);
});

test('verify: a wrong safe and a counterexample that does not fail are flagged', (t) => {
  const program = parseProgram(DOUBLING, 'doubling.c');
  const box = bruteForce(program, 'f');
  t.regex(checkVerify(program, box, { verdict: 'safe' }, { command: 'verify/liar' })[0]?.message ?? '', /says safe, but the run on a=4 fails the assertion on line 4/);
  const wrong = checkVerify(program, box, { verdict: 'unsafe', counterexample: { inputs: new Map([['a', 2n]]), nondet: [], line: 4, replayed: true } }, { command: 'verify/liar' });
  t.regex(wrong[0]?.message ?? '', /counterexample a=2 returns when replayed/);
  const failures: KnownFailure[] = [];
  t.deepEqual(checkVerify(program, box, { verdict: 'unsafe', counterexample: { inputs: new Map([['a', 100n]]), nondet: [], line: 4, replayed: true } }, { command: 'verify/honest', failures }), []);
  t.is(failures.length, 1);
  // A replayed counterexample outside the box refutes a safe verdict and a precondition admitting it.
  const cross = checkKnownFailures(failures, { safe: ['verify/liar'], preconditions: [{ command: 'wp', expression: 'a >= 50', formula: geq({ a: 1 }, -50) }] });
  t.is(cross.length, 2);
});

test('wp: a precondition 1 for a program that fails for some inputs is flagged, the right one is not', (t) => {
  const program = parseProgram(DOUBLING, 'doubling.c');
  const box = bruteForce(program, 'f');
  const found = checkWp(program, box, { preconditions: [claimed('1', F.TRUE)] });
  t.is(found.length, 1);
  t.is(found[0]!.kind, 'claim');
  t.regex(found[0]!.message, /certified precondition 1, but the run on a=4 fails/);
  // The saved case: the disagreement in a leading comment, then the program as generated.
  const saved = caseFile(1, 7, DOUBLING, { answers: [{ command: 'wp', answer: 'true', detail: '1', millis: 5, seen: { claims: 1, runs: 21 } }], disagreements: found, box: { runs: 21, failing: 7, returning: 14, cutOff: 0 } });
  t.regex(saved, /^\/\/ command-fuzz disagreement \(seed 1, program 7; .*--only 7 .*\n\/\/   \[claim\] wp: certified precondition 1, but/);
  t.true(saved.endsWith(DOUBLING));
  t.deepEqual(checkWp(program, box, { preconditions: [claimed('a <= 3', geq({ a: -1 }, 3))] }), []);
  // One too weak: a = 4 fails.
  t.is(checkWp(program, box, { preconditions: [claimed('a <= 4', geq({ a: -1 }, 4))] }).length, 1);
  // Not certified: not a claim.
  t.deepEqual(checkWp(program, box, { preconditions: [{ ...claimed('1', F.TRUE), certified: false }] }), []);
});

test('sp: a postcondition some returning run breaks is flagged', (t) => {
  const program = parseProgram(DOUBLING, 'doubling.c');
  const box = bruteForce(program, 'f');
  t.regex(checkSp(program, box, { at: 'exit', postcondition: claimed('x <= 4', geq({ x: -1 }, 4)) })[0]?.message ?? '', /returns with .*x=6/);
  // Runs that fail the assertion (x = 8 and more) are not returning runs.
  t.deepEqual(checkSp(program, box, { at: 'exit', postcondition: claimed('x <= 6 && x >= 0', F.and(geq({ x: -1 }, 6), geq({ x: 1 }, 0))) }), []);
});

test('bounds: a bound one too small is flagged', (t) => {
  const program = parseProgram(DOUBLING, 'doubling.c');
  const box = bruteForce(program, 'f');
  t.is(box.edges.loops.length, 1);
  const { line, col } = box.edges.loops[0]!;
  t.is(line, 3);
  const at = (bound: L.Linear): LoopBound => ({ function: 'f', line, col, bound: L.toC(bound), boundExpr: bound, precondition: '1', preconditionFormula: F.TRUE, certified: true, invariants: [] });
  t.regex(checkLoopBounds(program, box, [at(L.addConstant(L.variable('a'), -1n))])[0]?.message ?? '', /certified bound a - 1 .* makes 1 iterations/);
  t.deepEqual(checkLoopBounds(program, box, [at(L.variable('a'))]), []);
  // As bounds and its guard count: a do-while whose first statement is a failing assertion makes no
  // iteration on that run (seed 5, program 189 was flagged with a + 7 at a = -8 before), one that
  // passes it does.
  const first = parseProgram('int f(int a) {\n  int k = 0;\n  do { assert(k <= a + 6); k = k + 1; } while (k < a);\n  return k;\n}\n', 'do.c');
  const doBox = bruteForce(first, 'f');
  const loop = doBox.edges.loops[0]!;
  const bound = (b: L.Linear): LoopBound => ({ function: 'f', line: loop.line, col: loop.col, bound: L.toC(b), boundExpr: b, precondition: '1', preconditionFormula: F.TRUE, certified: true, invariants: [] });
  t.deepEqual(checkLoopBounds(first, doBox, [bound(L.addConstant(L.variable('a'), 7n))]), []);
  t.regex(checkLoopBounds(first, doBox, [bound(L.addConstant(L.variable('a'), 5n))])[0]?.message ?? '', /makes 1 iterations/);
});

test('cex: a condition admitting a returning input, and an input that does not fail, are flagged', (t) => {
  const program = parseProgram(DOUBLING, 'doubling.c');
  const box = bruteForce(program, 'f');
  const condition = (expression: string, formula: Formula, a: bigint) => ({ ...claimed(expression, formula), input: new Map([['a', a]]), nondet: [] });
  t.deepEqual(checkCex(program, box, { conditions: [condition('a >= 4', geq({ a: 1 }, -4), 5n)] }), []);
  const tooWide = checkCex(program, box, { conditions: [condition('a >= 2', geq({ a: 1 }, -2), 5n)] });
  t.is(tooWide.length, 1);
  t.regex(tooWide[0]!.message, /but the run on a=2 returns/);
  const badInput = checkCex(program, box, { conditions: [condition('a >= 4', geq({ a: 1 }, -4), 1n)] });
  t.true(badInput.some((d) => /input a=1 returns when replayed/.test(d.message)));
  t.true(badInput.some((d) => /lies outside it/.test(d.message)));
  // "No input fails" on a program with failing inputs in the box.
  const wrongSafe = checkCex(program, box, { conditions: [], provedSafe: { invariants: [] } });
  t.is(wrongSafe.length, 1);
  t.like(wrongSafe[0], { command: 'cex', kind: 'claim' });
  t.regex(wrongSafe[0]!.message, /says safe, but the run on a=\d+ fails/);
});

test('nonterm: a condition admitting a returning input, and a wrong "terminates", are flagged', (t) => {
  const program = parseProgram(DRIFT, 'drift.c');
  const box = bruteForce(program, 'f', { maxSteps: 500 });
  const right = F.and(geq({ x: 1 }, 0), geq({ a: 1 }, 0));
  t.deepEqual(checkNonterm(program, box, { verdict: 'non-terminating', conditions: [{ ...claimed('x >= 0 && a >= 0', right), input: new Map([['x', 0n], ['a', 0n]]) }] }), []);
  const wrong = checkNonterm(program, box, { verdict: 'non-terminating', conditions: [claimed('x >= 0', geq({ x: 1 }, 0))] });
  t.regex(wrong[0]?.message ?? '', /but the run on x=0, a=-4 returns/);
  t.regex(checkNonterm(program, box, { verdict: 'terminates', conditions: [] })[0]?.message ?? '', /says the function terminates, but the run on x=0, a=0 runs past 5000 steps/);
});

test('wp and sp: witnesses of neighbours that do not fail or do not return are flagged', (t) => {
  const program = parseProgram(DOUBLING, 'doubling.c');
  const box = bruteForce(program, 'f');
  const pre = (input: bigint) => ({ ...claimed('a <= 3', geq({ a: -1 }, 3)), neighbours: [{ expression: 'a <= 4', move: 'shift', input: new Map([['a', input]]), nondet: [], replayed: true }] });
  t.deepEqual(checkWp(program, box, { preconditions: [pre(4n)] }), []);
  const wrong = checkWp(program, box, { preconditions: [pre(2n)] });
  t.true(wrong.some((d) => /witness a=2 for its neighbour a <= 4 returns when replayed/.test(d.message)));
  t.true(wrong.some((d) => /lies inside the precondition/.test(d.message)));
  const post = (a: bigint, x: bigint) => ({ ...claimed('x <= 6', geq({ x: -1 }, 6)), neighbours: [{ expression: 'x <= 5', move: 'shift', input: new Map([['a', a]]), state: new Map([['a', a], ['x', x]]), nondet: [], replayed: true }] });
  t.deepEqual(checkSp(program, box, { at: 'exit', postcondition: post(3n, 6n) }), []);
  t.regex(checkSp(program, box, { at: 'exit', postcondition: post(2n, 6n) })[0]?.message ?? '', /returns with .*x=4.*, not with a=2, x=6/);
});

test('bounds: a tight input on which the loop runs otherwise is flagged', (t) => {
  const program = parseProgram(DOUBLING, 'doubling.c');
  const box = bruteForce(program, 'f');
  const { line, col } = box.edges.loops[0]!;
  const loop = (iterations: bigint): LoopBound => ({ function: 'f', line, col, bound: 'a + 1', boundExpr: L.addConstant(L.variable('a'), 1n), precondition: '1', preconditionFormula: F.TRUE, certified: true, invariants: [], tight: { input: new Map([['a', 2n]]), nondet: [], iterations } });
  // a + 1 is a true bound, but the run on a = 2 makes 2 iterations, not 3.
  t.regex(checkLoopBounds(program, box, [loop(3n)])[0]?.message ?? '', /tight on a=2 with 3 iterations, but the run makes 2/);
  t.regex(checkLoopBounds(program, box, [loop(2n)])[0]?.message ?? '', /but the bound a \+ 1 is 3 there/);
});

test('needles: the programs parse, their failing inputs fail and their passing ones do not, on the interpreter', (t) => {
  // The generator's model of each program (what the needle mode counts as a bug) against the runs:
  // 50 seeds, every family. Whether verify finds the bugs is measured (--programs needles), not tested.
  const shapes = new Set<string>();
  for (let seed = 1; seed <= 50; seed++) {
    const a = new NeedleGenerator(mulberry32(seed));
    const b = new NeedleGenerator(mulberry32(seed));
    for (const family of NEEDLE_FAMILIES) {
      const needle = a.program([family]);
      t.deepEqual(needle, b.program([family]));
      t.is(needle.family, family);
      shapes.add(needle.shape);
      const program = parseProgram(needle.source, `needle-${seed}.c`);
      t.is(program.entry, 'main');
      t.true(needle.failing.length >= 1, needle.source);
      const box = streamBox(program, 'main', [...needle.failing, ...needle.passing]);
      t.deepEqual(needleMismatches(needle, box), [], needle.source);
      // The names cex gives the reads (nondet_1, …) take the stream's values in order.
      for (const run of box.runs.slice(0, needle.failing.length)) {
        t.deepEqual([...run.nondetInputs!.values()], run.nondet, needle.source);
        t.deepEqual([...run.nondetInputs!.keys()], needle.inputs.map((_, i) => `nondet_${i + 1}`));
      }
    }
  }
  t.deepEqual([...shapes].sort(), ['counter', 'diagonal', 'limit', 'linear', 'point', 'recursion', 'step', 'tail', 'wrap-add', 'wrap-mul']);
});

test('cex on a whole program: a condition over the nondet reads admitting a passing input, and a wrong safe, are flagged', (t) => {
  const source = `extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assert(int);
int main() {
  unsigned char c = __VERIFIER_nondet_uchar();
  unsigned char d = c + 200;
  __VERIFIER_assert(d != 17);
  return 0;
}
`;
  const program = parseProgram(source, 'wrap.c');
  // Only c = 73 fails (73 + 200 = 273 = 17 mod 256).
  const box = streamBox(program, 'main', [[73n], [72n], [74n], [0n], [255n]]);
  t.deepEqual(box.runs.map((r) => r.outcome.kind), ['assertion-failed', 'exit', 'exit', 'exit', 'exit']);
  const condition = (expression: string, formula: Formula) => ({ ...claimed(expression, formula), input: new Map([['nondet_1', 73n]]), nondet: [73n] });
  const exact = F.and(geq({ nondet_1: 1 }, -73), geq({ nondet_1: -1 }, 73));
  t.deepEqual(checkCex(program, box, { conditions: [condition('nondet_1 == 73', exact)] }), []);
  const wide = checkCex(program, box, { conditions: [condition('nondet_1 >= 73', geq({ nondet_1: 1 }, -73))] });
  t.regex(wide[0]?.message ?? '', /certified failing condition nondet_1 >= 73, but the run on nondet 74 returns/);
  t.regex(checkVerify(program, box, { verdict: 'safe' })[0]?.message ?? '', /says safe, but the run on nondet 73 fails the assertion on line 6/);
});
