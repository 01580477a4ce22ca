// Values from the program's own text for the runs that look for failures: solved from its conditions
// through its linear assignments, its types' limits, its constants; and the streams that try each one
// at each read.
import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import { runProgram } from '../interpreter/index.js';
import { prepareAnalysis } from '../problem/prepare.js';
import { sampleStates } from './samples.js';
import { GUIDED_STREAM_LENGTH, guidedStreams, guidedValues, MAX_GUIDED_VALUES, solvedValues } from './guided-inputs.js';

const HEADER = `extern int __VERIFIER_nondet_int(void); extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int); extern void __VERIFIER_assert(int);
`;
/** Fails only at x == 409. */
const TIMES_THREE = `${HEADER}int main() { int x = __VERIFIER_nondet_int(); if (x > 0 && x < 100000) { __VERIFIER_assert(3 * x != 1227); } return 0; }\n`;
/** Fails only at c == 202: c + 57 wraps around to 3 (the IR's case `d := c - 199` for c >= 199). */
const WRAPS_TO_THREE = `${HEADER}int main() { unsigned char c = __VERIFIER_nondet_uchar(); unsigned char d = c + 57; __VERIFIER_assert(d != 3); return 0; }\n`;

const mainOf = (source: string, file: string) => {
  const program = parseProgram(source, file);
  return { program, proc: program.procedures.get('main')! };
};

test('an atom linear in one input gives the value where it changes truth (exact division), and its neighbours', (t) => {
  const { proc } = mainOf(TIMES_THREE, 'times-three.c');
  const solved = solvedValues(proc);
  // 3 * x - 1227 == 0 at 409; the branch's x >= 1 and x <= 99999 at their bounds.
  for (const v of [408n, 409n, 410n, 1n, 0n, 99999n, 100000n]) t.true(solved.includes(v), `${v} in ${solved.join(', ')}`);
});

test('an atom over a variable assigned from an input is solved for the input, in each case of a wrap-around', (t) => {
  const { proc } = mainOf(WRAPS_TO_THREE, 'wraps.c');
  const solved = solvedValues(proc);
  // d - 3 == 0 with d := c + 57 (c <= 198) gives -54, with d := c - 199 (c >= 199) gives 202.
  t.true(solved.includes(202n), solved.join(', '));
  t.true(solved.includes(-54n), solved.join(', '));
});

test('a variable updated from itself is not solved through (its value is no function of the inputs)', (t) => {
  const { proc } = mainOf(`${HEADER}int main() { int n = __VERIFIER_nondet_int(); int i = 0; while (i < n) { i = i + 5; } __VERIFIER_assert(i != 35); return 0; }\n`, 'loop.c');
  const solved = solvedValues(proc);
  // i := 0 gives the constant atom 0 - 35 == 0 (nothing to solve); i := i + 5 is left alone, so 30
  // (35 - 5) is no candidate; n is solved from i < n through i := 0 only.
  t.false(solved.includes(30n), solved.join(', '));
  t.true(solved.includes(0n) && solved.includes(1n), solved.join(', '));
});

test('the values: solved first, then the type limits, then the constants and their neighbours; bounded, no repeats', (t) => {
  const { program } = mainOf(WRAPS_TO_THREE, 'wraps.c');
  const values = guidedValues(program);
  t.is(new Set(values).size, values.length);
  t.true(values.length <= MAX_GUIDED_VALUES);
  // The assertion's atom first (-54 and 202 with their neighbours), then the branches', then what
  // the limits and constants add: 57 and 56 (57 - 1).
  const solved = solvedValues(program.procedures.get('main')!);
  t.deepEqual(values.slice(0, solved.length), solved);
  t.deepEqual(solved.slice(0, 6), [-54n, -55n, -53n, 202n, 201n, 203n]);
  t.true(values.indexOf(56n) > solved.length && values.includes(57n), values.join(', '));
  t.deepEqual(guidedValues(program, 5), values.slice(0, 5));
  t.deepEqual(guidedValues(mainOf(WRAPS_TO_THREE, 'wraps.c').program), values, 'the same values every time');
});

test('the streams: each value at every read, then each value at each read alone, never combinations', (t) => {
  let asked = 0;
  const streams = [...guidedStreams([7n, 0n, 9n], () => {
    asked++;
    return 3;
  })];
  t.is(asked, 1);
  t.deepEqual(streams.slice(0, 3).map((s) => [s.length, new Set(s).size, s[0]]), [[GUIDED_STREAM_LENGTH, 1, 7n], [GUIDED_STREAM_LENGTH, 1, 0n], [GUIDED_STREAM_LENGTH, 1, 9n]]);
  // 0 alone at a read is the all-zero stream, which the first ones cover: left out.
  t.deepEqual(streams.slice(3), [[7n], [0n, 7n], [0n, 0n, 7n], [9n], [0n, 9n], [0n, 0n, 9n]]);
  // A run that reads one value: the first streams are all.
  t.is([...guidedStreams([7n, 9n], () => 1)].length, 2);
});

// Sampling stops after a budget of steps; these tests want the full, deterministic sample.
const NO_TIME_LIMIT = { steps: 100_000_000 };

/** sampleStates on the paths cut-set, as verify samples, with or without the guided runs. */
function sampled(source: string, file: string, guidedRuns = true) {
  const program = parseProgram(source, file);
  const prepared = prepareAnalysis(program, undefined, 'paths');
  return { program, samples: sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, { ...NO_TIME_LIMIT, guidedRuns }) };
}

for (const [name, source, value] of [['3 * x != 1227', TIMES_THREE, 409n], ['(unsigned char)(c + 57) != 3', WRAPS_TO_THREE, 202n]] as const) {
  test(`sampleStates finds the one failing input of ${name} by the guided runs, and it replays`, (t) => {
    const { program, samples } = sampled(source, 'one-input.c');
    t.is(samples.failure?.outcome.kind, 'assertion-failed');
    t.deepEqual(samples.failure?.nondetConsumed, [value]);
    const replay = runProgram(program, { entry: 'main', nondet: samples.failure!.nondetConsumed, nondetDefault: null });
    t.is(replay.outcome.kind, 'assertion-failed');
    t.deepEqual(sampled(source, 'one-input.c').samples.failure?.nondetConsumed, [value], 'the same run every time');
    // The random and boundary runs alone miss it.
    t.is(sampled(source, 'one-input.c', false).samples.failure, undefined);
  });
}

test('a loop run n times, n assumed in 0..420, that fails for one n: every value between the solved bounds is tried', (t) => {
  // s reaches 1000 after 339 iterations; no condition gives 339 (s is updated from itself).
  const source = `${HEADER}int main() { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= n && n <= 420);
    int s = -17; int i = 0; for (i = 0; i < n; i++) { s += 3; } __VERIFIER_assert(s != 1000); return 0; }\n`;
  const { samples } = sampled(source, 'counter.c');
  t.deepEqual(samples.failure?.nondetConsumed, [339n]);
  t.is(sampled(source, 'counter.c', false).samples.failure, undefined);
});

test('a program with several reads gets each value at each read: the second read alone at 777', (t) => {
  const source = `${HEADER}int main() { int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int(); int c = __VERIFIER_nondet_int();
    if (a == 0 && c == 0) { __VERIFIER_assert(b != 777); } return 0; }\n`;
  const { samples } = sampled(source, 'second-read.c');
  t.deepEqual(samples.failure?.nondetConsumed, [0n, 777n, 0n]);
  t.is(sampled(source, 'second-read.c', false).samples.failure, undefined);
});

test('the guided runs add no state: the samples of a safe program are those of the other runs', (t) => {
  const source = `${HEADER}int main() { int x = __VERIFIER_nondet_int(); int y = 0; while (y < x) { y = y + 3; } __VERIFIER_assert(x <= 0 || y >= x); return 0; }\n`;
  const a = sampled(source, 'safe.c').samples;
  const b = sampled(source, 'safe.c', false).samples;
  t.is(a.failure, undefined);
  t.deepEqual(a.states, b.states);
  t.deepEqual(a.observed, b.observed);
});
