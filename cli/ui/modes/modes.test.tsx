import test from 'ava';
import { render } from 'ink-testing-library';
import { MODES, modeById, modeByKey } from './index.js';
import { MODE_KEYS } from './keys.js';
import { wpData, wpMode } from './wp.js';
import { conditionEvents } from './progress.js';
import { verifyMode, type VerifyData } from './verify.js';
import { spData, spMode } from './sp.js';
import type { WorkerMessage } from '../protocol.js';
import type { WpResult } from '../../../lib/conditions/types.js';
import * as F from '../../../lib/ir/formula.js';
import { readFileSync } from 'node:fs';
import { cexData, cexMode, concreteCexData } from './cex.js';
import { LineList } from './line-list.js';
import { nontermData, nontermMode } from './nonterm.js';
import { boundsData, boundsEvents, boundsMode } from './bounds.js';
import type { BoundsResult } from '../../../lib/termination/bounds.js';
import { parseProgram } from '../../../lib/frontend/index.js';
import { Problem, resolveSettings } from '../../../lib/index.js';
import { runProgram } from '../../../lib/interpreter/index.js';
import type { Program } from '../../../lib/ir/cfg.js';
import type { CexCondition, CexResult } from '../../../lib/conditions/cex.js';
import type { NontermResult } from '../../../lib/termination/nonterm.js';
import { shutdownZ3 } from '../../../lib/sat/z3-context.js';

test.after.always(() => shutdownZ3());

test('the registry has one key per mode', (t) => {
  t.is(new Set(MODES.map((m) => m.key)).size, MODES.length);
  t.is(modeByKey('v'), verifyMode);
  t.is(modeById('wp'), wpMode);
});

const wpResult: WpResult = {
  function: 'WP1',
  strategy: 'neighbourhood',
  parameters: ['i', 'j'],
  preconditions: [
    { expression: 'i <= 0', formula: F.TRUE, certified: true, invariants: [{ line: 7, expression: 'x <= 0' }], neighbours: [{ expression: 'i <= 1', move: '+1', input: new Map([['i', 1n], ['j', 5n]]), line: 11, replayed: true }], locallyOptimal: true },
    { expression: 'i >= j', formula: F.TRUE, certified: true, invariants: [], neighbours: [{ expression: 'i >= j - 1', move: '-1', replayed: false, note: 'no failing input found' }], locallyOptimal: false },
  ],
  stats: { queries: [], iterations: 2, concreteRuns: 300, millis: 8500 },
};

test('wp: preconditions as a list with their status and the neighbours\' witnesses', (t) => {
  const data = wpData(wpResult);
  const frame = render(<wpMode.Result data={data} selected={null} traceIndex={0} pins={[]} width={70} height={10} color={false} />).lastFrame()!;
  t.regex(frame, /preconditions of WP1\(i, j\), neighbourhood/);
  t.regex(frame, /1\. i <= 0 {2}\[certified\] \[locally weakest\]/);
  t.regex(frame, /not i <= 1: i=1, j=5 fails line 11/);
  t.regex(frame, /2\. i >= j {2}\[certified\]$/m);
  t.regex(frame, /not i >= j - 1: no failing input found/);
  t.regex(frame, /300 runs, 8\.5 s/);
  t.deepEqual(JSON.parse(JSON.stringify(wpMode.exportJson(data))).preconditions.map((p: { expression: string }) => p.expression), ['i <= 0', 'i >= j']);
});

test('wp: the answer true reads as every input, not as "1. 1" (the export keeps the C expression)', (t) => {
  const safe: WpResult = { ...wpResult, preconditions: [{ expression: '1', formula: F.TRUE, certified: true, invariants: [], neighbours: [], locallyOptimal: true }] };
  const data = wpData(safe);
  const frame = render(<wpMode.Result data={data} selected={null} traceIndex={0} pins={[]} width={70} height={10} color={false} />).lastFrame()!;
  t.regex(frame, /1\. 1 \(true: every input\) {2}\[certified\]/);
  t.notRegex(frame, /1\. 1 {2}\[/);
  t.deepEqual(JSON.parse(JSON.stringify(wpMode.exportJson(data))).preconditions.map((p: { expression: string }) => p.expression), ['1']);
});

test('wp: a short pane says how many lines were left out', (t) => {
  const frame = render(<wpMode.Result data={wpData(wpResult)} selected={null} traceIndex={0} pins={[]} width={70} height={3} color={false} />).lastFrame()!;
  t.regex(frame, /… 4 more \(x exports all\)/);
});

test('wp progress: query rows, answers, and a bar that fills as the binary search narrows', (t) => {
  const sent: WorkerMessage[] = [];
  const on = conditionEvents((m) => sent.push(m));
  on({ kind: 'query-start', index: 0, conjuncts: 1, template: '1x2', purpose: 'locally weakest precondition' });
  on({ kind: 'binary-step', entry: 'D1', low: '0', high: '255' });
  on({ kind: 'binary-step', entry: 'D1', low: '0', high: '15' });
  on({ kind: 'binary-step', entry: 'D1', low: '3', high: '3' });
  on({ kind: 'answer', expression: 'i >= j' });
  const events = sent.map((m) => (m.type === 'search' ? m.event : null));
  t.like(events[0], { kind: 'row-start', template: '1x2', widths: '1 conj', purpose: 'locally weakest precondition' });
  const bars = events.filter((e) => e?.kind === 'bar') as { fraction: number; label: string }[];
  t.is(bars[0]!.fraction, 0);
  t.is(bars[1]!.fraction, 0.5);
  t.is(bars[2]!.fraction, 1);
  t.is(bars[2]!.label, 'D1 in [3, 3]');
  t.like(bars[3], { label: 'answers 1/3' });
  // The library's bounds are fractions in units of 1/2 (lib/conditions/wp.ts, binary search on D).
  on({ kind: 'binary-step', entry: 'D[1][const]', low: '0/2', high: '128/2' });
  on({ kind: 'binary-step', entry: 'D[1][const]', low: '64/2', high: '128/2' });
  on({ kind: 'binary-step', entry: 'D[1][const]', low: '126/2', high: '127/2' });
  const fractions = sent.slice(-3).map((m) => (m.type === 'search' && m.event.kind === 'bar' ? m.event.fraction : null));
  t.is(fractions[0], 0);
  t.true(fractions[1]! > 0 && fractions[2]! > fractions[1]! && fractions[2]! > 0.7, String(fractions));
  for (const k of [2, 3, 4]) on({ kind: 'answer', expression: `a${k}` });
  const last = sent[sent.length - 1]!;
  t.like(last, { type: 'search', event: { kind: 'bar', label: 'answers 4 found (at most 3 reported)', fraction: 1 } });
});

test('verify: the invariant of the selected cut-point, else the first one', (t) => {
  const data: VerifyData = {
    verdict: 'safe', certified: true, function: 'f', schedule: 'paper', template: '2x2', widths: '3/8/1', json: {},
    invariants: [{ line: 5, col: 3, expression: 'a >= 0', function: 'f' }, { line: 9, col: 3, expression: 'b <= a', function: 'f' }],
  };
  const at9 = render(<verifyMode.Result data={data} selected={{ line: 9, col: 3 }} traceIndex={0} pins={[]} width={60} height={8} color={false} />).lastFrame()!;
  t.regex(at9, /line 9:3: b <= a/);
  t.regex(at9, /2 cut-points/);
  const other = render(<verifyMode.Result data={data} selected={{ line: 12, col: 3 }} traceIndex={0} pins={[]} width={60} height={8} color={false} />).lastFrame()!;
  t.regex(other, /line 5:3 \(first cut-point\)/);
  const unknown = render(<verifyMode.Result data={{ ...data, verdict: 'unknown', certified: false, reason: 'timeout after 3 s' }} selected={null} traceIndex={0} pins={[]} width={60} height={8} color={false} />).lastFrame()!;
  t.regex(unknown, /unknown: timeout after 3 s/);
  t.regex(unknown, /not certified \(candidate\)/);
});

test('sp: the postcondition with the reachable states that rule out its neighbours', (t) => {
  const data = spData({
    function: 'f', line: 12, at: 'exit', variables: ['x', 'y'],
    postcondition: { expression: 'x == y', formula: F.TRUE, certified: true, invariants: [], neighbours: [{ expression: 'x <= y - 1', move: '-1', state: new Map([['x', 3n], ['y', 3n]]), replayed: true }], locallyOptimal: true },
    stats: { queries: [], iterations: 1, concreteRuns: 10, millis: 1200 },
  });
  const frame = render(<spMode.Result data={data} selected={null} traceIndex={0} pins={[]} width={70} height={8} color={false} />).lastFrame()!;
  t.regex(frame, /strongest postcondition of f at the exit over x, y/);
  t.regex(frame, /x == y {2}\[certified\] \[locally strongest\]/);
  t.regex(frame, /not x <= y - 1: reaches x=3, y=3/);
  t.is(modeByKey('s'), spMode);
});

const boundTenSource = readFileSync(new URL('../../../../benchmarks/conditions/bound-ten.c', import.meta.url), 'utf8');

/** A cex result shaped like the library's on bound-ten.c (the condition's run is the interpreter's). */
function boundTenCex(): { program: Program; result: CexResult } {
  const program = parseProgram(boundTenSource, 'bound-ten.c');
  const input = new Map([['n', 11n]]);
  const run = runProgram(program, { entry: 'boundTen', inputs: input, nondet: [], recordTrace: true });
  t0(run.outcome.kind === 'assertion-failed' && run.outcome.pos.line === 6, 'n = 11 fails the assertion on line 6');
  const condition: CexCondition = { expression: 'n >= 11', formula: F.TRUE, certified: true, invariants: [], neighbours: [], locallyOptimal: true, input, nondet: [], line: 6, replayed: true, run };
  return { program, result: { function: 'boundTen', nondetInputs: [], instrumented: program, conditions: [condition], dropped: [{ expression: 'n <= -5', reason: 'no input inside it fails an assertion' }], stats: { queries: [], iterations: 1, concreteRuns: 291, millis: 2200 } } };
}
function t0(ok: boolean, what: string): void {
  if (!ok) throw new Error(`fixture broken: ${what}`);
}

test('cex: the failing conditions, then the first one\'s run one step at a time', (t) => {
  const { program, result } = boundTenCex();
  const data = cexData(program, 'bound-ten.c', result);
  t.is(modeByKey('C'), cexMode);
  const view = (i: number) => render(<cexMode.Result data={data} selected={null} traceIndex={i} pins={[]} width={60} height={12} color={false} />).lastFrame()!;
  const first = view(0);
  t.regex(first, /1\. n >= 11 {2}\[certified\]/);
  t.regex(first, /dropped n <= -5: no input inside it fails/);
  t.regex(first, /1: n=11 fails at line 6/);
  t.regex(first, /step 1\/\d+ {2}line 2/);
  const trace = cexMode.trace!(data)!;
  t.is(trace[trace.length - 1]!.line, 6, 'the run ends at the failing assertion');
  const last = view(trace.length - 1);
  t.regex(last, new RegExp(`step ${trace.length}/${trace.length} {2}line 6 {2}assertion fails`));
  t.regex(last, /n=11 i=11/);
  const json = JSON.parse(JSON.stringify(cexMode.exportJson(data)));
  t.like(json.conditions[0], { expression: 'n >= 11', input: { n: '11' }, line: 6 });
});

test('cex: a concrete counterexample before any condition: labelled, stepped, exported with its input', (t) => {
  const { program } = boundTenCex();
  const input = new Map([['n', 12n]]);
  const run = runProgram(program, { entry: 'boundTen', inputs: input, nondet: [], recordTrace: true });
  const data = concreteCexData(program, 'bound-ten.c', 'boundTen', { input, nondet: [], line: 6, run });
  const frame = render(<cexMode.Result data={data} selected={null} traceIndex={2} pins={[]} width={60} height={9} color={false} />).lastFrame()!;
  t.regex(frame, /searching most-general conditions…/);
  t.regex(frame, /concrete counterexample \(replayed\): n=12 fails at line 6/);
  t.regex(frame, /step 3\/\d+ {2}line 4/);
  t.regex(frame, /n=12 i=0/);
  t.like(JSON.parse(JSON.stringify(cexMode.exportJson(data))), { searching: true, concreteCounterexample: { input: { n: '12' }, line: 6, replayed: true } });
});

test('cex: no failing condition says why, without a trace', (t) => {
  const { program, result } = boundTenCex();
  const data = cexData(program, 'bound-ten.c', { ...result, conditions: [], reason: 'only non-termination conditions were found' });
  t.is(cexMode.trace!(data), undefined);
  const frame = render(<cexMode.Result data={data} selected={null} traceIndex={0} pins={[]} width={60} height={8} color={false} />).lastFrame()!;
  t.regex(frame, /no failing condition: only non-termination conditions were\s+found/);
});

test('result lists wrap long lines at the pane width and cut at whole lines, saying how many are left', (t) => {
  const long = 'i >= 0 && n - i >= 0 && j - 2 * i <= 7 && x + y + z == 100';
  const lines = [{ text: `1. ${long}  [certified]` }, { text: 'second' }, { text: 'third' }];
  const all = render(<LineList lines={lines} width={30} height={6} color={false} />).lastFrame()!;
  t.true(all.split('\n').every((r) => r.length <= 30));
  t.true(all.replace(/\s+/g, ' ').includes(`1. ${long} [certified] second third`), all);
  const cut = render(<LineList lines={lines} width={30} height={4} color={false} />).lastFrame()!;
  t.regex(cut.replace(/\s+/g, ' '), /\[certified\] … 2 more \(x exports all\)$/);
});

test('nonterm: each condition with the iterations of a run that does not return', (t) => {
  const result: NontermResult = {
    function: 'guard',
    verdict: 'non-terminating',
    conditions: [{
      expression: 'i >= 1', formula: F.TRUE, certified: true, locallyOptimal: true,
      invariants: [{ line: 6, expression: 'i >= 1' }],
      neighbours: [{ expression: 'i >= 0', move: '-1', input: new Map([['i', 0n]]), replayed: true }],
      input: new Map([['i', 2n]]),
      iterationsShown: [{ line: 6, values: new Map([['i', 2n]]) }, { line: 6, values: new Map([['i', 3n]]) }],
    }],
    stats: { queries: [], iterations: 1, concreteRuns: 311, millis: 3300 },
  };
  const data = nontermData('nonterm-guard.c', result);
  t.is(modeByKey('N'), nontermMode);
  const frame = render(<nontermMode.Result data={data} selected={null} traceIndex={0} pins={[]} width={70} height={12} color={false} />).lastFrame()!;
  t.regex(frame, /guard: non-terminating/);
  t.regex(frame, /1\. i >= 1 {2}\[certified\] \[locally weakest\]/);
  t.regex(frame, /runs forever from i=2:/);
  t.regex(frame, /iteration 1 \(line 6\): i=2\n.*iteration 2 \(line 6\): i=3/);
  t.regex(frame, /recurrent set, line 6: i >= 1/);
  t.regex(frame, /not i >= 0: returns on i=0/);
  const unknown = render(<nontermMode.Result data={nontermData('f.c', { ...result, verdict: 'unknown', conditions: [], reason: 'no non-termination condition found' })} selected={null} traceIndex={0} pins={[]} width={70} height={12} color={false} />).lastFrame()!;
  t.regex(unknown, /guard: unknown \(no non-termination condition found\)/);
  t.like(JSON.parse(JSON.stringify(nontermMode.exportJson(data))), { verdict: 'non-terminating', conditions: [{ expression: 'i >= 1', input: { i: '2' } }] });
});

test('bounds: each loop\'s certified bound, the input attaining it, conditional bounds with their precondition', (t) => {
  const result: BoundsResult = {
    function: 'f',
    parameters: ['n', 'm'],
    loops: [
      { function: 'f', line: 4, col: 3, bound: 'n', boundExpr: null, precondition: '1', preconditionFormula: F.TRUE, certified: true, invariants: [{ line: 4, expression: 'iterations_4 == i' }], tight: { input: new Map([['n', 7n], ['m', 0n]]), nondet: [], iterations: 7n } },
      { function: 'f', line: 9, col: 3, bound: '-x0 + y0', boundExpr: null, precondition: 'n >= m + 1', preconditionFormula: F.TRUE, certified: true, locallyWeakest: true, invariants: [] },
      { function: 'f', line: 12, col: 3, bound: null, boundExpr: null, precondition: '1', preconditionFormula: F.TRUE, certified: false, invariants: [], reason: 'the bound n was not proved' },
    ],
    procedures: [],
    runs: 96,
    nonTerminatingRuns: 22,
    calleesWithLoops: [],
    stats: { proofAttempts: 5, satCalls: 9, maxClauses: 40000 },
    millis: 23000,
  };
  const data = boundsData('f.c', result);
  t.is(modeByKey('b'), boundsMode);
  t.deepEqual(boundsMode.marks!(data), [{ line: 4, col: 3 }, { line: 9, col: 3 }, { line: 12, col: 3 }]);
  const view = (selected: { line: number; col: number } | null, height = 12) => render(<boundsMode.Result data={data} selected={selected} traceIndex={0} pins={[]} width={70} height={height} color={false} />).lastFrame()!;
  const all = view(null);
  t.regex(all, /iterations of f\(n, m\)'s loops:/);
  t.regex(all, / line 4: at most n {2}\[certified\]\n\s+attained on n=7, m=0: 7 iterations\n\s+invariant line 4: iterations_4 == i/);
  t.regex(all, / line 9: at most -x0 \+ y0 {2}\[certified\]\n\s+if n >= m \+ 1 \(locally weakest\)/);
  t.regex(all, / line 12: no bound \(the bound n was not proved\)/);
  t.regex(all, /96 runs \(22 did not return\), 23\.0 s/);
  // A short pane keeps the selected loop on top.
  t.regex(view({ line: 9, col: 3 }, 3), /loops:\n>line 9: at most -x0 \+ y0/);
  t.like(JSON.parse(JSON.stringify(boundsMode.exportJson(data))), { loops: [{ line: 4, bound: 'n', tight: { iterations: '7' } }, { line: 9, precondition: 'n >= m + 1' }, { line: 12, bound: null }] });
});

test('bounds progress: sampling, each candidate and each loop\'s result as the search phase', (t) => {
  const sent: WorkerMessage[] = [];
  const on = boundsEvents((m) => sent.push(m));
  on({ kind: 'sampled', runs: 96, nonTerminating: 22 });
  on({ kind: 'candidate', line: 7, bound: 'y0 - x0' });
  on({ kind: 'result', line: 7, bound: 'y0 - x0', verdict: 'certified' });
  t.deepEqual(sent.map((m) => (m.type === 'search' && m.event.kind === 'phase' ? m.event.text : null)), ['96 concrete runs (22 did not return)', 'line 7: proving at most y0 - x0 iterations', 'line 7: bound y0 - x0 certified']);
});

test('verify: the Engines pane fills from the shared cross-check, one engine at a time, then the certificate check', async (t) => {
  const source = 'int main() { int x = 0; while (x < 5) { x = x + 1; } assert(x == 5); return 0; }\n';
  const sent: WorkerMessage[] = [];
  await verifyMode.run(Problem.of(parseProgram(source, 'tiny.c')), resolveSettings(), { mode: 'verify', file: 'tiny.c', source, options: { cutset: 'paths', schedule: 'paper' } }, (m) => sent.push(m));
  const panes = sent.flatMap((m) => (m.type === 'engines' ? [m.rows] : []));
  t.deepEqual(panes[0]!.map((r) => r.name), ['constraint/SAT', 'lazy-abstraction', 'symbolic', 'lazy-annotation', 'certificate check']);
  // The constraint engine's row is the search's own answer (done at once), not a second run.
  t.like(panes[0]![0], { status: 'done', verdict: 'safe' });
  const statuses = panes.map((rows) => rows.map((r) => r.status).join(' '));
  t.deepEqual(statuses, [
    'done pending pending pending pending',
    'done running pending pending pending',
    'done done pending pending pending',
    'done done running pending pending',
    'done done done pending pending',
    'done done done running pending',
    'done done done done pending',
    'done done done done running',
    'done done done done done',
  ]);
  t.like(panes.at(-1)!.at(-1), { name: 'certificate check', verdict: 'valid' });
});

test('the modes\' ids and keys that ui --help and --mode use without loading the modes are the modes\' own', (t) => {
  t.deepEqual(MODE_KEYS.map((m) => [m.id, m.key]), MODES.map((m) => [m.id, m.key]));
});
