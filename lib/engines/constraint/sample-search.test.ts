// The sample search before a template step: it refutes a step without a solution, proves with a
// certified candidate, and its conditions from counterexamples are those of the program's runs.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseProgram } from '../../frontend/index.js';
import { Problem, templatesFor, type PreparedAnalysis } from '../../problem/prepare.js';
import { widenedStep } from './step-system.js';
import { loadSchedule } from '../../constraints/schedule.js';
import { sampleBadStates, sampleStates, type State } from '../../observe/samples.js';
import { createBackend } from '../../sat/index.js';
import { shutdownZ3 } from '../../sat/z3-context.js';
import { checkInvariants } from '../../certify/certificate.js';
import { Deadline } from '../../limits.js';
import { makeTemplate, templateUnknowns } from '../../constraints/template.js';
import { encodeUnknowns } from '../../encode/system-encoder.js';
import { addSeed, assertStateConditions, searchBySamples, seedOf, stateConditions, type StateConditions } from './sample-search.js';
import { verify } from './verify.js';
import { resolveSettings } from '../../settings.js';

test.after.always(async () => {
  await shutdownZ3();
});

const root = fileURLToPath(new URL('../../../../', import.meta.url));

function prepare(rel: string, cutset: 'paths' | 'headers'): PreparedAnalysis {
  return Problem.of(parseProgram(readFileSync(root + rel, 'utf8'), rel), undefined).analysis(cutset);
}

/** The conditions verify starts from: the sampled states and the bad states next to them. */
function sampled(prepared: PreparedAnalysis): StateConditions {
  const samples = sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints);
  return stateConditions(samples.states, sampleBadStates(prepared.preparedProgram, prepared.function, samples));
}

async function searchStep(prepared: PreparedAnalysis, stepNumber: number, conditions: StateConditions) {
  const step = widenedStep(prepared, loadSchedule('paper').steps[stepNumber - 1]!);
  return searchBySamples({
    prepared,
    templates: templatesFor(prepared, step.shape),
    widths: step.widths,
    facts: new Map(),
    conditions,
    backend: createBackend('minisat'),
    work: { conflicts: 50_000, propagations: 30_000_000 },
    deadline: new Deadline(),
  });
}

// Serial: the checker's z3 keeps one context, whose models (the counterexamples) depend on the checks
// made before; run alone, as in a command, the checks come in the same order every time.
test.serial('Fig. 2 at the loop header: the 2x3 step (3-bit coefficients) is refuted', async (t) => {
  // No invariant of 2 disjuncts of 3 conjuncts with coefficients in -4..3 proves PV2: the states on
  // the diagonal x == y, 0 <= x <= 50, need a disjunct of their own, and three half-planes with such
  // slopes that hold all of them hold some (k, k + 1) too, from which the loop ends at x == 103.
  const prepared = prepare('benchmarks/paper/fig2.c', 'headers');
  const conditions = sampled(prepared);
  const before = conditions.bad.length;
  const outcome = await searchStep(prepared, 5, conditions);
  t.is(outcome.kind, 'refuted');
  // The sampled states alone do not refute it: the checker's counterexamples did.
  t.true(outcome.rounds > 1, `${outcome.rounds} rounds`);
  t.true(conditions.bad.length > before || conditions.implications.length > 0);
});

test.serial('Fig. 1 on the path cut-set: a candidate of the 1x2 step is certified', async (t) => {
  const prepared = prepare('benchmarks/paper/fig1.c', 'paths');
  const outcome = await searchStep(prepared, 1, sampled(prepared));
  if (outcome.kind !== 'proved') return t.fail(`${outcome.kind}: ${'reason' in outcome ? outcome.reason : ''}`);
  const check = await checkInvariants(prepared.preparedProgram, prepared.function, outcome.invariants, { precondition: prepared.precondition });
  t.true(check.valid);
  t.is(outcome.invariants.size, prepared.unknownCutpoints.length);
});

test('a counterexample state whose run fails an assertion is bad, and so is every state after it on the run', (t) => {
  const prepared = prepare('benchmarks/paper/fig2.c', 'headers');
  const header = prepared.unknownCutpoints[0]!;
  const state = (x: bigint, y: bigint): State => new Map([['x', x], ['y', y]]);
  const conditions: StateConditions = { reached: [], bad: [], implications: [] };
  // From (60, 44) the loop ends at x == 60 + 44 + 1: the assertion x == 102 fails.
  const added = addSeed(prepared, { kind: 'step', from: header, state: state(59n, 45n), to: header, next: state(60n, 44n) }, conditions);
  t.true(conditions.bad.every((b) => b.at === header));
  const bad = conditions.bad.map((b) => b.state);
  t.true(added > 2);
  t.deepEqual(conditions.implications, []);
  t.true(bad.some((s) => s.get('x') === 59n && s.get('y') === 45n), 'the step starts from a bad state');
  for (const s of bad) t.is(s.get('x')! + s.get('y')!, 104n, 'each state on the run keeps x + y');
});

test('a counterexample state whose run does not fail gives the implications along its run', (t) => {
  const prepared = prepare('benchmarks/paper/fig2.c', 'headers');
  const header = prepared.unknownCutpoints[0]!;
  const state = (x: bigint, y: bigint): State => new Map([['x', x], ['y', y]]);
  const conditions: StateConditions = { reached: [], bad: [], implications: [] };
  // (60, 42) is on the path of the program's own run: from it the loop ends at x == 102.
  addSeed(prepared, { kind: 'step', from: header, state: state(59n, 43n), to: header, next: state(60n, 42n) }, conditions);
  t.deepEqual(conditions.bad, []);
  const [first, ...rest] = conditions.implications;
  t.is(first?.state.get('x'), 59n);
  t.is(first?.next.get('x'), 60n);
  t.true(rest.length > 0);
  // A chain: each implication starts where the one before ends, and x + y stays 102.
  rest.forEach((i, k) => {
    t.deepEqual([...i.state], [...(k === 0 ? first!.next : rest[k - 1]!.next)]);
    t.is(i.next.get('x')! + i.next.get('y')!, 102n);
  });
});

test.serial('verify: a step whose SAT search runs out is refuted by the concrete states (Fig. 2, the 2x3 step at the header)', async (t) => {
  const rel = 'benchmarks/paper/fig2.c';
  const step = loadSchedule('paper').steps[4]!;
  t.deepEqual(step.shape, { disjuncts: 2, conjuncts: 3 });
  // Its Farkas CNF runs out of the default budget (50,000 conflicts); the sample search that follows,
  // with as much SAT work again, refutes it.
  const result = await verify(Problem.of(parseProgram(readFileSync(root + rel, 'utf8'), rel)), resolveSettings({ cutset: 'headers', schedule: { name: 'one step', description: 'the paper schedule\'s 2x3 step', steps: [step] } }), { observedBounds: 'never' });
  t.is(result.verdict, 'unknown');
  t.is(result.stats.length, 1);
  t.is(result.stats[0]!.result, 'unsat', result.stats[0]!.reason);
  t.regex(result.stats[0]!.reason ?? '', /^conflict limit reached .*; then refuted by concrete states/);
});

test('conditions added after a CNF took the first ones reach it, whatever cut-point they are at', async (t) => {
  // Two cut-points, 1x1 templates over x: the CNF takes the reached and bad states of both, then a
  // bad state at the first cut-point equal to a reached one is added (as the sample search does
  // between rounds): it must reach the CNF though the list of the second cut-point comes after.
  const templates = new Map([1, 2].map((c) => [c, makeTemplate(c, ['x'], { disjuncts: 1, conjuncts: 1 })] as const));
  const unknowns = [...templates.values()].flatMap((tp) => {
    const { coefficients, constants } = templateUnknowns(tp);
    return [...coefficients.map((name) => ({ name, kind: 'coefficient' as const, nonNegative: false })), ...constants.map((name) => ({ name, kind: 'constant' as const, nonNegative: false }))];
  });
  const encoder = encodeUnknowns(unknowns, { coefficient: 3, constant: 6, multiplier: 1 });
  const x = (v: bigint): State => new Map([['x', v]]);
  const conditions = stateConditions(new Map([[1, [x(0n)]], [2, [x(5n)]]]), new Map([[1, [x(9n)]], [2, [x(-9n)]]]));
  const counts = assertStateConditions(encoder, templates, new Map(), conditions);
  t.deepEqual(counts, { reached: 2, bad: 2, implications: 0 });
  const backend = createBackend('minisat');
  t.is((await backend.solve(encoder.builder.toCnf())).status, 'sat');
  conditions.bad.push({ at: 1, state: x(0n) });
  t.deepEqual(assertStateConditions(encoder, templates, new Map(), conditions, counts), { reached: 2, bad: 3, implications: 0 });
  // x == 0 is both in and out of the invariant at cut-point 1: no template satisfies that.
  t.is((await backend.solve(encoder.builder.toCnf())).status, 'unsat');
});

test('a counterexample state is a seed only with a value for every variable live at its cut-point, also those its template leaves out', (t) => {
  const prepared = prepare('benchmarks/paper/fig2.c', 'headers');
  const header = prepared.unknownCutpoints[0]!;
  t.deepEqual([...prepared.variables.get(header)!].sort(), ['x', 'y']);
  // A hull attempt's template: y fixed by an equality, so the template is over x alone.
  const templates = new Map([[header, makeTemplate(header, ['x'], { disjuncts: 1, conjuncts: 2 })]]);
  const refuted = (counterexample: Map<string, bigint>) => ({ from: header, to: header, kind: 'safety' as const, status: 'refuted' as const, counterexample, failingState: counterexample, millis: 0 });
  // Without y the run from the state is not determined: no condition from it.
  t.is(seedOf(refuted(new Map([['x', 103n]])), prepared, templates), null);
  t.deepEqual(seedOf(refuted(new Map([['x', 103n], ['y', -1n]])), prepared, templates), { kind: 'bad', at: header, state: new Map([['x', 103n], ['y', -1n]]) });
  // Not at a cut-point with a template: none either.
  t.is(seedOf(refuted(new Map([['x', 103n], ['y', -1n]])), prepared, new Map()), null);
});
