// Concrete samples guide the SAT search, so they must be right: every state sampled at a cut-point is
// reached by a real run, and every "bad" state really leads to an assertion failure.
import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import type { Program } from '../ir/cfg.js';
import { runProgram } from '../interpreter/index.js';
import { prepareAnalysis } from '../problem/prepare.js';
import { sampleBadStates, sampleCalls, sampleStates, withLongRuns, type State } from './samples.js';

const PV1 = 'void PV1(int y) { int x = -50; while (x < 0) { x = x + y; y++; } assert(y > 0); }\n';
const PV2 = `int main() { int x = 0; int y = 0;
  while (1) {
    if (x <= 50) y++; else y--;
    if (y < 0) break;
    x++;
  }
  assert(x == 102);
  return 0; }
`;

// Sampling stops after a time budget; these tests want the full, deterministic sample even on a busy machine.
const NO_TIME_LIMIT = { steps: 100_000_000 };

const key = (s: State) => [...s].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join(',');

/** States of the entry frame at `location` along one run (locals start at 0, as the sampler assumes). */
function statesAlongRun(program: Program, fn: string, inputs: ReadonlyMap<string, bigint>, location: number, maxSteps: number): Set<string> {
  const proc = program.procedures.get(fn)!;
  const run = runProgram(program, { entry: fn, inputs, maxSteps, recordTrace: true });
  const env = new Map<string, bigint>([...proc.locals.map((l) => [l, 0n] as [string, bigint]), ...run.inputs]);
  const out = new Set<string>();
  if (location === proc.entry) out.add(key(env));
  for (const step of run.trace ?? []) {
    if (step.depth !== 0) continue;
    for (const [k, v] of step.values) env.set(k, v);
    if (step.to === location) out.add(key(env));
  }
  return out;
}

for (const strategy of ['headers', 'paths'] as const) {
  test(`Fig. 1 (${strategy}): each sampled state is reached by a replayed run`, (t) => {
    const prepared = prepareAnalysis(parseProgram(PV1, 'pv1.c'), undefined, strategy);
    const [cut] = prepared.unknownCutpoints;
    const samples = sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, NO_TIME_LIMIT);
    t.is(samples.failure, undefined, 'Fig. 1 is safe: no run fails');
    const states = samples.states.get(cut!) ?? [];
    t.true(states.length >= 5, `only ${states.length} states sampled`);
    t.true(states.length <= 32);
    t.is(new Set(states.map(key)).size, states.length, 'states are distinct');
    for (const s of states) {
      t.deepEqual([...s.keys()].sort(), ['x', 'y']);
      // Reconstruct the run: at the k-th visit y = y0 + k and x = -50 + k·y0 + k(k-1)/2 (before the
      // loop test for 'headers'; after it, i.e. with x < 0, for 'paths').
      const x = s.get('x')!;
      const y = s.get('y')!;
      let replayed = false;
      for (let k = 0n; k <= 4000n && !replayed; k++) {
        const y0 = y - k;
        if (-50n + k * y0 + (k * (k - 1n)) / 2n !== x) continue;
        replayed = statesAlongRun(prepared.preparedProgram, prepared.function, new Map([['y', y0]]), cut!, 4000).has(key(s));
      }
      t.true(replayed, `state ${key(s)} is not reachable`);
    }
  });
}

test('Fig. 2 (paths): sampled states at both cut-points are states of the one deterministic run', (t) => {
  const prepared = prepareAnalysis(parseProgram(PV2, 'pv2.c'), undefined, 'paths');
  t.is(prepared.unknownCutpoints.length, 2);
  const samples = sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, NO_TIME_LIMIT);
  t.is(samples.failure, undefined);
  for (const cut of prepared.unknownCutpoints) {
    const reachable = statesAlongRun(prepared.preparedProgram, prepared.function, new Map(), cut, 100000);
    const states = samples.states.get(cut) ?? [];
    t.true(states.length > 0);
    for (const s of states) t.true(reachable.has(key(s)), `${key(s)} at cut-point ${cut}`);
  }
});

const COUNT_TO_TEN = 'int main() { int x = 0; while (x < 10) { x = x + 1; } assert(x == 10); return 0; }\n';

/** COUNT_TO_TEN from its loop cut-point with the given x: does the assertion fail? */
function countFails(x: bigint, strategy: 'headers' | 'paths'): boolean {
  if (strategy === 'paths') x += 1n; // the cut-point sits after the test x < 10, before x = x + 1
  while (x < 10n) x += 1n;
  return x !== 10n;
}

for (const strategy of ['headers', 'paths'] as const) {
  test(`bad states (${strategy}) are unreached neighbours from which the assertion really fails`, (t) => {
    const prepared = prepareAnalysis(parseProgram(COUNT_TO_TEN, 'ten.c'), undefined, strategy);
    const [cut] = prepared.unknownCutpoints;
    const samples = sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, NO_TIME_LIMIT);
    const goodStates = samples.states.get(cut!) ?? [];
    // Deterministic: x = 0..10 at the header, 0..9 inside the body.
    t.deepEqual(goodStates.map((s) => s.get('x')).sort((a, b) => Number(a! - b!)), strategy === 'headers' ? [0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n] : [0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n]);
    const bad = sampleBadStates(prepared.preparedProgram, prepared.function, samples, NO_TIME_LIMIT).get(cut!) ?? [];
    const good = new Set(goodStates.map(key));
    for (const s of bad) {
      t.false(good.has(key(s)));
      t.true(countFails(s.get('x')!, strategy), `from ${key(s)} the assertion holds`);
    }
    // The one failing neighbour: one past the last reachable x.
    t.deepEqual(bad.map((s) => s.get('x')), [strategy === 'headers' ? 11n : 10n]);
  });
}

test('inputs that must be equal to pass an early return still reach the loop (correlated draws)', (t) => {
  // Independent draws almost never give j == k == n > 0; without correlated streams the loop's
  // cut-point saw no state at all and Houdini had nothing to propose.
  const source = `int nondet(); int main() { int j = nondet(); int k = nondet(); int n = nondet();
    if (!(j == n && k == n && n > 0)) return 0;
    while (j > 0 && n > 0) { j--; k--; }
    assert(k == 0); return 0; }
`;
  const prepared = prepareAnalysis(parseProgram(source, 'equal-inputs.c'), undefined, 'paths');
  const samples = sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, NO_TIME_LIMIT);
  t.is(samples.failure, undefined);
  for (const c of prepared.unknownCutpoints) {
    const states = samples.states.get(c) ?? [];
    t.true(states.length >= 4, `cut-point ${c}: only ${states.length} states`);
    for (const s of states) t.is(s.get('j'), s.get('k'), 'every reached state has j == k');
  }
});

test('Fig. 1 (paths): the loop-body cut-point has no failing neighbours, so no bad states', (t) => {
  // At the cut-point after the loop test x < 0 holds; from x <= 0 the loop can only exit with y > 0.
  const prepared = prepareAnalysis(parseProgram(PV1, 'pv1.c'), undefined, 'paths');
  const samples = sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, NO_TIME_LIMIT);
  for (const states of sampleBadStates(prepared.preparedProgram, prepared.function, samples, NO_TIME_LIMIT).values()) t.deepEqual(states, []);
});

test('a failing run is reported and replays to the same assertion', (t) => {
  const source = 'int main() { int n = __VERIFIER_nondet_int(); int i = 0; while (i < n) { i++; } assert(i != 7); return 0; }\n';
  const program = parseProgram(source, 'unsafe.c');
  const prepared = prepareAnalysis(program, undefined, 'paths');
  const samples = sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, NO_TIME_LIMIT);
  const failure = samples.failure;
  t.truthy(failure);
  t.is(failure!.outcome.kind, 'assertion-failed');
  const replay = runProgram(program, { entry: prepared.function, inputs: failure!.inputs, nondet: failure!.nondetConsumed, nondetDefault: null });
  t.is(replay.outcome.kind, 'assertion-failed');
  t.is(replay.nondetConsumed[0], 7n);
  // Bad states are found from the counting loop's cut-point: one more or less step and i lands on 7.
  const bad = sampleBadStates(prepared.preparedProgram, prepared.function, samples, NO_TIME_LIMIT);
  for (const [cut, states] of bad) {
    for (const s of states) {
      // i counts to n from the cut-point (after the test i < n: one increment, then the loop).
      const i = s.get('i')! + 1n;
      const n = s.get('n')!;
      const final = i < n ? n : i;
      t.is(final, 7n, `bad state ${key(s)} at ${cut} does not end with i == 7`);
    }
  }
});

test('a failure that needs many iterations is found by the long runs, which a caller can leave out', (t) => {
  // 50,000 iterations: past every traced run's step limit, within a long run's.
  const source = 'int main() { int i = 0; while (1) { i++; assert(i != 50000); } return 0; }\n';
  const prepared = prepareAnalysis(parseProgram(source, 'long.c'), undefined, 'headers');
  const sample = (longRuns: boolean) => sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, { ...NO_TIME_LIMIT, longRuns });
  t.is(sample(true).failure?.outcome.kind, 'assertion-failed');
  const traced = sample(false);
  t.is(traced.failure, undefined);
  t.true((traced.states.get(prepared.unknownCutpoints[0]!)?.length ?? 0) > 0, 'the traced runs still sample the header');
  t.true(traced.readsNoInput, 'the function reads no input');
  // Added later, they find the same failure.
  const added = withLongRuns(prepared.preparedProgram, prepared.function, traced, NO_TIME_LIMIT);
  t.is(added.failure?.outcome.kind, 'assertion-failed');
  t.is(added.failure?.steps, sample(true).failure?.steps);
  t.is(added.states, traced.states);
});

test('long runs added later are the long runs taken with the samples, for a function that reads input', (t) => {
  // The failure needs 50,000 iterations and an input k >= 0: only a long run with such a k reaches it.
  const source = 'int main() { int k = __VERIFIER_nondet_int(); int i = 0; while (i < 60000) { i++; assert(k < 0 || i != 50000); } return 0; }\n';
  const prepared = prepareAnalysis(parseProgram(source, 'long-input.c'), undefined, 'headers');
  const sample = (longRuns: boolean) => sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, { ...NO_TIME_LIMIT, longRuns });
  const withThem = sample(true);
  const traced = sample(false);
  t.falsy(traced.readsNoInput);
  t.is(traced.failure, undefined);
  const added = withLongRuns(prepared.preparedProgram, prepared.function, traced, NO_TIME_LIMIT);
  t.is(withThem.failure?.outcome.kind, 'assertion-failed');
  t.deepEqual(added.failure?.nondetConsumed, withThem.failure?.nondetConsumed);
  t.true((added.failure?.nondetConsumed[0] ?? -1n) >= 0n);
});

const ADD = `int Add(int i, int j) {
  int ret;
  if (i <= 0) { ret = j; } else { ret = Add(i - 1, j + 1); }
  return ret;
}
void IP1() {
  int r = Add(5, 3);
  assert(r == 8);
}
`;

test('observed calls include direct calls on a grid of arguments, off the line the program calls on', (t) => {
  const program = parseProgram(ADD, 'add.c');
  const calls = sampleCalls(program, 'IP1').get('Add') ?? [];
  const value = (c: (typeof calls)[number], v: string) => c.args.get(v) ?? 0n;
  // The program itself only calls Add(5, 3), Add(4, 4), …, Add(0, 8): i + j == 8 and the result 8.
  t.true(calls.some((c) => value(c, 'i') === 5n && value(c, 'j') === 3n && c.result === 8n));
  t.true(calls.some((c) => value(c, 'i') + value(c, 'j') !== 8n), 'some call is off the line i + j == 8');
  // Every observation is a real call: the result is what Add computes.
  for (const c of calls) t.is(c.result, value(c, 'i') > 0n ? value(c, 'i') + value(c, 'j') : value(c, 'j'));
});

test('a quotient in a loop body takes its one possible value: random runs are not blocked there, and reach many iterations', (t) => {
  const source = `int main() {
  int k = __VERIFIER_nondet_int();
  int n = 0;
  for (int i = 0; i < 2 * k; i++) { if (i % 2 == 0) n++; }
  assert(k < 0 || n == k);
  return 0; }
`;
  const program = parseProgram(source, 'half.c');
  const prepared = prepareAnalysis(program, 'main', 'headers');
  const samples = sampleStates(prepared.preparedProgram, 'main', prepared.unknownCutpoints, NO_TIME_LIMIT);
  const states = prepared.unknownCutpoints.flatMap((c) => samples.states.get(c) ?? []);
  t.true(states.some((s) => (s.get('i') ?? 0n) >= 10n), `${states.length} states`);
  // Every sampled state is real: n is i / 2 rounded up.
  for (const s of states) t.is(s.get('n'), (s.get('i')! + 1n) / 2n);
});

test('a program that reads no input is run once per kind of run, and samples as if every run had been made', (t) => {
  // The same program twice: once without input, once reading one whose value is overwritten at once.
  // The second reads a nondet value on every run, so each run is made; the first's repeats are
  // counted, not made. Their samples and bad states must be the same.
  const body = 'while (x < 30) { if (x % 7 == 3) y = y + 2; x++; } assert(y <= 8); return 0; }\n';
  const withoutInput = parseProgram(`int main() { int x = 0; int y = 0;\n${body}`, 'a.c');
  const readsInput = parseProgram(`int main() { int x = __VERIFIER_nondet_int(); int y = 0; x = 0;\n${body}`, 'b.c');
  const sample = (program: Program) => {
    const prepared = prepareAnalysis(program, 'main', 'headers');
    const samples = sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, NO_TIME_LIMIT);
    const bad = sampleBadStates(prepared.preparedProgram, prepared.function, samples, NO_TIME_LIMIT);
    const all = (m: ReadonlyMap<number, readonly State[]>) => [...m.values()].flat().map(key).sort();
    return { states: all(samples.states), observed: all(samples.observed ?? new Map()), bad: all(bad), failed: samples.failure !== undefined };
  };
  const a = sample(withoutInput);
  const b = sample(readsInput);
  t.true(a.states.length > 0 && a.bad.length > 0);
  t.deepEqual(a, b);
});

test("observed calls include calls at the callee's own case boundaries, solved from its conditions", (t) => {
  // The program calls f(0), f(20), f(40), f(60); the grid's chains from 1, 2, 3, 5, -1, -2 stay on
  // their residues modulo 20. Only the values solved from n > 55 (55, 56, 54, 57) call f where its
  // first case begins: f(56) == 55.
  const source = 'int f(int n) { if (n > 55) return n - 1; return f(n + 20); }\nvoid g() { int r = f(0); assert(r == 59); }\n';
  const program = parseProgram(source, 'cases.c');
  const calls = sampleCalls(program, 'g').get('f') ?? [];
  t.true(calls.some((c) => c.args.get('n') === 56n && c.result === 55n), calls.map((c) => `f(${c.args.get('n')}) = ${c.result}`).join(', '));
  for (const c of calls) {
    let n = c.args.get('n')!;
    while (n <= 55n) n += 20n;
    t.is(c.result, n - 1n);
  }
});

test('the bad-state runs count the compiling of their programs against the step budget', (t) => {
  // Every neighbour with y off by one fails at once: a run of a few steps, after a program compiled.
  const source = 'int main() { int x = 0; int y = 0; while (x < 5) { x++; } assert(x == 5 && y == 0); return 0; }\n';
  const prepared = prepareAnalysis(parseProgram(source, 'short-runs.c'), undefined, 'headers');
  const samples = sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, NO_TIME_LIMIT);
  const found = (steps: number) => [...sampleBadStates(prepared.preparedProgram, prepared.function, samples, { steps }).values()].flat().length;
  const all = found(100_000_000);
  t.true(all >= 2);
  // 80 steps per edge: enough for every run's steps alone, not once each run also pays its compile.
  const edges = prepared.preparedProgram.procedures.get(prepared.function)!.edges.length;
  t.true(found(80 * edges) < all);
});
