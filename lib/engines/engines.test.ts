// The registry (every engine through the one interface, on a tiny safe and a tiny unsafe program),
// then the interpolation engines on the examples of papers 000–003 (as reconstructed in the notes) and
// small classics. Every answer given must be the expected one (safe answers are certified by the
// independent checker, unsafe ones replayed by the interpreter); where an engine is expected to
// succeed, the test says so.
import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { runProgram } from '../interpreter/index.js';
import { availableEngines, CONSTRAINT_ENGINE, engineByName, interpolationEngines, registeredEngines, type EngineResult, type InterpolationEngineName, type InterpolationEngineStats } from './index.js';
import { Problem } from '../problem/prepare.js';
import { resolveSettings } from '../settings.js';

test.after.always(() => shutdownZ3());

interface Example {
  readonly name: string;
  readonly source: string;
  readonly expected: 'safe' | 'unsafe';
  /** Engines that must answer (not "unknown") within the test's budget. */
  readonly decidedBy: readonly InterpolationEngineName[];
}

const NONDET = 'extern int __VERIFIER_nondet_int(void);\n';
const EXAMPLES: Example[] = [
  {
    name: 'paper 000 Fig. 1 simple: x == 0, maybe x += y with y >= 0, then x >= 0',
    source: `${NONDET}int main() { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x == 0);
      if (__VERIFIER_nondet_int()) { int y = __VERIFIER_nondet_int(); __VERIFIER_assume(y >= 0); x = x + y; }
      assert(x >= 0); return 0; }`,
    expected: 'safe',
    decidedBy: ['lazy-annotation', 'lazy-abstraction', 'symbolic'],
  },
  {
    name: 'paper 000 Fig. 1 diamond: p survives two diamonds (the too-specific label a is recovered from)',
    source: `${NONDET}int main() { int p = __VERIFIER_nondet_int(); int x = __VERIFIER_nondet_int(); int a;
      __VERIFIER_assume(p != 0); if (__VERIFIER_nondet_int()) a = 1; else a = 0;
      if (a != 0) x = x + 1; else x = x - 1; assert(p != 0); return 0; }`,
    expected: 'safe',
    decidedBy: ['lazy-annotation', 'lazy-abstraction', 'symbolic'],
  },
  {
    name: 'paper 000 Fig. 1 loop1: x >= y survives the loop (the time-to-live proof generalised by tau := 0)',
    source: `${NONDET}int main() { int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int(); int n = __VERIFIER_nondet_int(); int i;
      __VERIFIER_assume(x == y); i = 0; while (i < n) { x = x + 1; i = i + 1; } assert(x >= y); return 0; }`,
    expected: 'safe',
    decidedBy: ['lazy-annotation', 'symbolic'],
  },
  {
    name: 'paper 000 loop1 made unsafe: x > y fails when the loop does not run',
    source: `${NONDET}int main() { int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int(); int n = __VERIFIER_nondet_int(); int i;
      __VERIFIER_assume(x == y); i = 0; while (i < n) { x = x + 1; i = i + 1; } assert(x > y); return 0; }`,
    expected: 'unsafe',
    decidedBy: ['lazy-annotation', 'lazy-abstraction', 'symbolic'],
  },
  {
    name: 'paper 000 Fig. 1 call1: foo increments the global x (inlined), so x >= y after x = y; foo()',
    source: `${NONDET}int x; void foo() { x = x + 1; }
      int main() { int y = __VERIFIER_nondet_int(); x = y; foo(); assert(x >= y); return 0; }`,
    expected: 'safe',
    decidedBy: ['lazy-annotation', 'lazy-abstraction', 'symbolic'],
  },
  {
    name: 'paper 003 Fig. 1(a): x counts up to n, x >= 0 after the loop',
    source: `${NONDET}int main() { int n = __VERIFIER_nondet_int(); int x = 0; while (x < n) { x++; } assert(x >= 0); return 0; }`,
    expected: 'safe',
    // Lazy abstraction diverges here (x == 0, x == 1, … at successive unwindings; no forced covering).
    decidedBy: ['symbolic'],
  },
  {
    name: 'paper 003 Fig. 1(b): the lock example (TRACER needs one selective unroll)',
    source: `${NONDET}int main() { int lock = 0; int old = __VERIFIER_nondet_int(); int nw = old + 1;
      while (nw != old) { lock = 1; old = nw; if (__VERIFIER_nondet_int()) { lock = 0; nw++; } }
      assert(lock != 0); return 0; }`,
    expected: 'safe',
    // Our TRACER pins new = old + 1 at the header on every restart instead of unrolling: not decided yet.
    decidedBy: ['lazy-abstraction'],
  },
  {
    name: 'paper 003 Fig. 1(c) / Ex. 3: z == 1 survives the loop; foo changes only its locals',
    source: `${NONDET}void foo() { int t = 0; t++; }
      int main() { int x = 0; int y = 0; int z = 1;
      while (__VERIFIER_nondet_int()) { if (__VERIFIER_nondet_int()) { } else { x++; y++; } foo(); x = x - y; }
      assert(z == 1); return 0; }`,
    expected: 'safe',
    decidedBy: ['lazy-abstraction', 'symbolic'],
  },
  {
    name: 'paper 003 Ex. 3 variant (x != 0 at the end): the paper says safe, the notes show it is UNSAFE',
    source: `${NONDET}void foo() { int t = 0; t++; }
      int main() { int x = 0; int y = 0; int z = 1;
      while (__VERIFIER_nondet_int()) { if (__VERIFIER_nondet_int()) { } else { x++; y++; } foo(); x = x - y; }
      assert(x == 0); return 0; }`,
    expected: 'unsafe',
    // The failing run needs two different loop iterations; symbolic execution restarts too often to get there yet.
    decidedBy: ['lazy-abstraction'],
  },
  {
    name: 'paper 002 Example 1 (Fig. 7): the interpolant a <= c - 2 needs b > 0 => b >= 1',
    source: `${NONDET}int main() { int b = __VERIFIER_nondet_int(); int a; int c; if (b <= 0) return 0;
      c = 2 * b; a = b; a = a - 1; if (a < b) { assert(a != c); } return 0; }`,
    expected: 'safe',
    decidedBy: ['lazy-abstraction', 'symbolic'],
  },
  {
    name: 'paper 002 Fig. 2: old values (x == ctr - 1 after the increment)',
    source: `${NONDET}int main() { int ctr = __VERIFIER_nondet_int(); int m = __VERIFIER_nondet_int(); int x; int y;
      x = ctr; ctr = ctr + 1; y = ctr; if (x == m) { assert(y == m + 1); } return 0; }`,
    expected: 'safe',
    decidedBy: ['lazy-abstraction', 'symbolic'],
  },
  {
    name: 'a bound the loop can reach: i == 3 when n == 3',
    source: `${NONDET}int main() { int n = __VERIFIER_nondet_int(); int i = 0; while (i < n) { i++; } assert(i != 3); return 0; }`,
    expected: 'unsafe',
    decidedBy: ['lazy-abstraction', 'symbolic'],
  },
  {
    name: 'paper 004 Fig. 1 (PV1): needs x < 0 || y > 0 at the header',
    source: `void PV1(int y) { int x = -50; while (x < 0) { x = x + y; y++; } assert(y > 0); }`,
    expected: 'safe',
    decidedBy: ['symbolic'],
  },
];

/** The statistics of an interpolation engine's result (the constraint engine's have other fields). */
function searchStats(result: EngineResult): InterpolationEngineStats {
  if (result.engineStats.engine === CONSTRAINT_ENGINE) throw new Error('constraint engine statistics where an interpolation engine ran');
  return result.engineStats;
}

test('the registry: the constraint engine first, then the three interpolation engines, each with a description', (t) => {
  t.deepEqual(availableEngines(), ['constraints', 'lazy-abstraction', 'symbolic', 'lazy-annotation']);
  t.deepEqual(registeredEngines().map((e) => e.name), availableEngines());
  t.deepEqual(interpolationEngines(), ['lazy-abstraction', 'symbolic', 'lazy-annotation']);
  for (const engine of registeredEngines()) {
    t.is(engineByName(engine.name), engine);
    t.regex(engine.description, /^\S[^\n]*$/, `${engine.name}: one line`);
  }
  t.is(engineByName('magic'), undefined);
});

const TINY_SAFE = 'int main() { int x = 0; while (x < 5) { x = x + 1; } assert(x == 5); return 0; }';
const TINY_UNSAFE = `${NONDET}int main() { int n = __VERIFIER_nondet_int(); int i = 0; while (i < n) { i++; } assert(i != 2); return 0; }`;

test.serial('every registered engine through the same interface: a tiny safe and a tiny unsafe program, definite verdicts agree', async (t) => {
  for (const [source, expected] of [[TINY_SAFE, 'safe'], [TINY_UNSAFE, 'unsafe']] as const) {
    const program = parseProgram(source, `tiny-${expected}.c`);
    const verdicts = new Map<string, string>();
    for (const engine of registeredEngines()) {
      const result = await engine.run(Problem.of(program), resolveSettings({ timeoutMs: 30_000 }));
      verdicts.set(engine.name, result.verdict);
      const statedEngine: string = result.engineStats.engine;
      t.is(statedEngine, engine.name);
      t.is(result.function, 'main');
      if (result.verdict === 'safe') t.true(result.certified, engine.name);
      if (result.verdict === 'unsafe') t.true(result.counterexample?.replayed, engine.name);
    }
    t.deepEqual([...verdicts.values()].filter((v) => v !== 'unknown' && v !== expected), [], [...verdicts].join(', '));
    // The reference engine decides both: the agreement above is not vacuous.
    t.is(verdicts.get(CONSTRAINT_ENGINE), expected);
  }
});

test('the constraint engine takes its own options through the common interface: schedule, cut-set, and its steps as statistics', async (t) => {
  const program = parseProgram(TINY_SAFE, 'tiny-safe.c');
  const result = await engineByName(CONSTRAINT_ENGINE)!.run(Problem.of(program), resolveSettings({ timeoutMs: 30_000, cutset: 'headers', schedule: 'paper' }));
  t.is(result.verdict, 'safe');
  t.is(result.cutset, 'headers');
  t.is(result.schedule, 'paper');
  const stats = result.engineStats;
  if (stats.engine !== CONSTRAINT_ENGINE) return t.fail(`statistics of ${stats.engine}`);
  t.is(stats.steps, result.stats.length);
  t.is(stats.clauses, result.stats.reduce((sum, s) => sum + s.clauses, 0));
});

test('the constraint engine: an aborted signal ends the search with unknown', async (t) => {
  const program = parseProgram('void PV1(int y) { int x = -50; while (x < 0) { x = x + y; y++; } assert(y > 0); }', 'pv1.c');
  const result = await engineByName(CONSTRAINT_ENGINE)!.run(Problem.of(program), resolveSettings({ signal: AbortSignal.abort() }));
  t.is(result.verdict, 'unknown');
  t.is(result.reason, 'aborted');
});

for (const example of EXAMPLES) {
  for (const name of interpolationEngines()) {
    test.serial(`${name}: ${example.name}`, async (t) => {
      const program = parseProgram(example.source, 'example.c');
      // Engines not expected to decide an example get a short budget: the test then only checks they are not wrong.
      const result = await engineByName(name)!.run(Problem.of(program), resolveSettings({ timeoutMs: example.decidedBy.includes(name) ? 15_000 : 2_000 }));
      t.not(result.verdict, example.expected === 'safe' ? 'unsafe' : 'safe', `wrong answer: ${result.reason ?? ''}`);
      if (example.decidedBy.includes(name)) t.is(result.verdict, example.expected, result.reason);
      if (result.verdict === 'safe') {
        t.true(result.certified);
        t.true(result.invariants.length > 0 || !program.procedures.get(result.function)!.locations.some((l) => l.loopHeader));
      }
      if (result.verdict === 'unsafe') {
        const cex = result.counterexample!;
        t.true(cex.replayed);
        const run = runProgram(program, { entry: result.function, inputs: cex.inputs, nondet: cex.nondet, nondetDefault: null });
        t.is(run.outcome.kind, 'assertion-failed');
      }
      t.is(result.engineStats.engine, name);
      t.true(searchStats(result).nodes > 0);
    });
  }
}

test('recursion: unknown with a reason from the engines without summaries, proved by lazy annotation (negative summaries)', async (t) => {
  const program = parseProgram('int f(int n) { if (n <= 0) return 0; return f(n - 1); }\nint main() { int r = f(3); assert(r == 0); return 0; }', 'rec.c');
  for (const name of interpolationEngines()) {
    const result = await engineByName(name)!.run(Problem.of(program), resolveSettings({ timeoutMs: 15_000 }));
    if (name === 'lazy-annotation') {
      t.is(result.verdict, 'safe', result.reason);
      t.true(result.certified);
      continue;
    }
    t.is(result.verdict, 'unknown');
    t.regex(result.reason ?? '', /recursive/);
  }
});

test('a node budget stops the search with unknown', async (t) => {
  const program = parseProgram(EXAMPLES.find((e) => e.name.includes('PV1'))!.source, 'pv1.c');
  const result = await engineByName('lazy-abstraction')!.run(Problem.of(program), resolveSettings(), { maxNodes: 5 });
  t.is(result.verdict, 'unknown');
  t.regex(result.reason ?? '', /node limit/);
});

test('lazy-annotation: loop1 is proved by the tau-free part of its bounded proof, x >= y at the loop head', async (t) => {
  const program = parseProgram(EXAMPLES.find((e) => e.name.includes('loop1: x >= y'))!.source, 'loop1.c');
  const result = await engineByName('lazy-annotation')!.run(Problem.of(program), resolveSettings({ timeoutMs: 15_000 }));
  t.is(result.verdict, 'safe');
  t.deepEqual(result.invariants.map((i) => i.expression), ['x >= y']);
  // τ0 = 0 suffices: no deeper search was needed.
  t.is(searchStats(result).restarts, 0);
});
