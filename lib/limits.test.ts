// The budgets inside the searches count work (z3's resource units, interpreter steps, solver queries,
// runs), not time (issue 20): the same program and options give the same answer however fast the
// machine is. Here a simulated clock stands in for a very busy machine: every reading of Date.now()
// or performance.now() jumps 40 ms ahead, so a search that budgets milliseconds sees its budget end
// after a few dozen readings (the Houdini pass had 3 s: 75 readings). Without --timeout the answers
// must not change. The SAT steps' budget is conflicts, counted inside the solver (its worker thread
// does not see this clock), so the last test shows the same steps failing and succeeding.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { parseProgram } from './frontend/index.js';
import { verify } from './index.js';
import { wp } from './conditions/wp.js';
import { sp } from './conditions/sp.js';
import { bounds } from './termination/bounds.js';
import { CERTIFICATE_CHECK_WORK, Deadline, DeadlineExceeded, WorkBudget } from './limits.js';
import { checkInvariants } from './certify/certificate.js';
import * as F from './ir/formula.js';
import * as L from './ir/linear.js';
import { Problem } from './problem/prepare.js';
import { resolveSettings, withDeadline } from './settings.js';

const benchmark = (path: string) => parseProgram(readFileSync(new URL(`../../benchmarks/${path}`, import.meta.url), 'utf8'), path);

async function withRacingClock<T>(run: () => Promise<T>): Promise<T> {
  const realNow = Date.now;
  const realPerformanceNow = performance.now;
  let skew = 0;
  Date.now = () => realNow() + (skew += 40);
  performance.now = () => realPerformanceNow.call(performance) + (skew += 40);
  try {
    return await run();
  } finally {
    Date.now = realNow;
    performance.now = realPerformanceNow;
  }
}

test.serial('the clock jumps as the test says, and is restored afterwards', async (t) => {
  const [before, after] = await withRacingClock(async () => [Date.now(), Date.now()] as const);
  t.true(after - before >= 40);
  const a = Date.now();
  const b = Date.now();
  t.true(b - a < 40);
});

test.serial('verify: the Houdini pass proves Fig. 2 with the same invariants on a racing clock', async (t) => {
  const program = benchmark('paper/fig2.c');
  const summary = (r: Awaited<ReturnType<typeof verify>>) => ({
    verdict: r.verdict,
    invariants: r.invariants.map((i) => `${i.line}: ${i.expression}`),
    houdini: r.houdini ? { candidates: r.houdini.candidates, kept: r.houdini.kept, rounds: r.houdini.rounds, proved: r.houdini.proved } : null,
  });
  const idle = summary(await verify(Problem.of(program), resolveSettings()));
  // The answer depends on Houdini here (the first template attempt finds nothing), so the test
  // would notice a Houdini budget in milliseconds.
  t.is(idle.verdict, 'safe');
  t.true(idle.houdini?.proved);
  const busy = summary(await withRacingClock(() => verify(Problem.of(program), resolveSettings())));
  t.deepEqual(busy, idle);
});

test.serial('wp: the sampled inputs and the answers are the same on a racing clock', async (t) => {
  const program = benchmark('conditions/wp1.c');
  const summary = (r: Awaited<ReturnType<typeof wp>>) => ({
    answers: r.preconditions.map((p) => p.expression),
    runs: r.stats.concreteRuns,
    queries: r.stats.queries.length,
  });
  const idle = summary(await wp(Problem.of(program, 'WP1'), resolveSettings()));
  t.true(idle.answers.length > 0);
  const busy = summary(await withRacingClock(() => wp(Problem.of(program, 'WP1'), resolveSettings())));
  t.deepEqual(busy, idle);
});

test.serial('sp: exploration, Houdini and the strengthening queries give the speedometer the same answer on a racing clock', async (t) => {
  const program = benchmark('conditions/speedometer.c');
  const summary = (r: Awaited<ReturnType<typeof sp>>) => ({ postcondition: r.postcondition?.expression ?? null, queries: r.stats.queries.length });
  const idle = summary(await sp(Problem.of(program, 'SP1'), resolveSettings()));
  t.not(idle.postcondition, null);
  const busy = summary(await withRacingClock(() => sp(Problem.of(program, 'SP1'), resolveSettings())));
  t.deepEqual(busy, idle);
});

test.serial('bounds: both loops of a nested pair get the same bounds on a racing clock', async (t) => {
  const program = benchmark('bounds/nested.c');
  const summary = (r: Awaited<ReturnType<typeof bounds>>) => ({
    loops: r.loops.map((l) => `${l.line}: ${l.bound} if ${l.precondition} (${l.certified ? 'certified' : l.reason})`),
    runs: r.runs,
    attempts: r.stats.proofAttempts,
  });
  // A day: the racing clock passes it only if the search reads the clock two million times.
  const run = () => bounds(Problem.of(program, 'nested'), resolveSettings({ timeoutMs: 86_400_000 }));
  const idle = summary(await run());
  t.deepEqual(idle.loops.map((l) => l.split(' (')[1]), ['certified)', 'certified)']);
  const busy = summary(await withRacingClock(run));
  t.deepEqual(busy, idle);
});

test('a shared work budget gives each check at most what is left, and is spent by what the checks used', (t) => {
  const budget = new WorkBudget(1000);
  t.is(budget.next(400), 400);
  budget.charge(700);
  t.is(budget.next(400), 300);
  t.false(budget.exhausted);
  budget.charge(300);
  t.true(budget.exhausted);
  t.is(budget.next(400), 0);
});

test('a certificate check that has spent its shared work leaves the rest unknown, not refuted', async (t) => {
  const program = parseProgram('void f(int n) { int i = 0; while (i < n) i++; assert(i >= 0); }\n', 'f.c');
  const header = program.procedures.get('f')!.locations.find((l) => l.loopHeader)!.id;
  const iNonNegative = F.geqZero(L.variable('i'));
  const spent = new WorkBudget(1);
  spent.charge(1);
  const result = await checkInvariants(program, 'f', new Map([[header, iNonNegative]]), { work: spent, workPerCheck: CERTIFICATE_CHECK_WORK });
  t.false(result.valid);
  // Only the exit's obligation (its goal is `true`) needs no check.
  t.deepEqual(result.obligations.map((o) => `${o.kind}:${o.status}`).sort(), ['consecution:unknown', 'exit:proved', 'initiation:unknown', 'safety:unknown']);
  t.regex(result.reason!, /ran out before it started/);
  // With work, the same invariant is proved.
  const proved = await checkInvariants(program, 'f', new Map([[header, iNonNegative]]));
  t.true(proved.valid, proved.reason);
});

test.serial('verify: a step that runs out of conflicts is skipped at the same point and the same proof follows, on a racing clock', async (t) => {
  const program = benchmark('literature/conserved-sum.c');
  // Its first step (1x2 with the hull equalities) needs about 300 conflicts.
  const summary = (r: Awaited<ReturnType<typeof verify>>) => ({
    verdict: r.verdict,
    steps: r.stats.map((s) => `${s.template} ${s.result} ${s.conflicts} ${s.reason ?? ''}`),
    invariants: r.invariants.map((i) => `${i.line}: ${i.expression}`),
  });
  // MiniSat alone: its conflict counts are what the regex reads (the default back end would race an
  // installed cadical on steps this large).
  const run = () => verify(Problem.of(program), resolveSettings({ stepConflicts: 100, backend: 'minisat' }), { observedBounds: 'never' });
  const idle = summary(await run());
  t.regex(idle.steps[0]!, /^1x2\+eq unknown 10\d conflict limit reached \(100 conflicts\); then neither refuted nor solved by concrete states in \d+ rounds? \(.*\)$/);
  const busy = summary(await withRacingClock(run));
  t.deepEqual(busy, idle);
  t.deepEqual(summary(await run()), idle);
});

test('Deadline: one clock with its abort signal, handed down; an abort is told apart from the time', (t) => {
  const none = new Deadline();
  t.false(none.bounded);
  t.false(none.passed);
  t.deepEqual(none.timeLimit, {});
  t.notThrows(() => none.check());
  const past = new Deadline(-1);
  t.true(past.passed);
  t.deepEqual(past.timeLimit, { timeLimitMs: 1 }); // a part that takes milliseconds still gets one, and answers "timeout" itself
  t.throws(() => past.check(), { instanceOf: DeadlineExceeded });
  t.is(past.timeoutReason('last step: 1x1'), 'timeout after 0 s (last step: 1x1)');
  t.false(past.extended(60_000).passed);
  const controller = new AbortController();
  const running = new Deadline(60_000, controller.signal);
  controller.abort();
  t.true(running.aborted);
  t.false(running.passed);
  t.is(running.extended(1000).signal, controller.signal);
});

test('verify keeps to the deadline of its settings, whatever timeout made them', async (t) => {
  const program = parseProgram('void f(int n) { int x = 0; while (x < n) x++; assert(x >= 0); }\n', 'f.c');
  const result = await verify(Problem.of(program), withDeadline(resolveSettings({ timeoutMs: 600_000 }), new Deadline(-1)));
  t.is(result.verdict, 'unknown');
  t.regex(result.reason ?? '', /^timeout after/);
});
