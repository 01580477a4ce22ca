// Live progress of every mode (issue 24): the library's events as Search-pane rows and phases, and
// the pane showing them while the job runs (a fake runner posts what the worker would).
import test from 'ava';
import { cleanup, render } from 'ink-testing-library';
import { readFileSync } from 'node:fs';
import type { ConditionEvent, ProgressEvent } from '../../../lib/index.js';
import type { SearchEvent, WorkerMessage } from '../protocol.js';
import { App } from '../app.js';
import { MODES } from './index.js';
import { conditionEvents, RowNumbers } from './progress.js';
import { boundsEvents } from './bounds.js';
import { FakeRunner, until } from '../testing/fake-runner.js';

const fig1 = readFileSync(new URL('../../../../benchmarks/paper/fig1.c', import.meta.url), 'utf8');
test.afterEach.always(() => cleanup());

const widths = { coefficient: 3, constant: 7, multiplier: 1 };
const stepStats = (result: 'sat' | 'unsat', clauses: number) => ({ template: '1x2', disjuncts: 1, conjuncts: 2, widths, unknowns: 4, constraints: 9, variables: 100, clauses, encodeMillis: 5, satMillis: 40, result });

/** One proof of `bound` at line 6 as the constraint engine reports it: `steps` steps, the last sat. */
function proof(bound: string, steps: number): ConditionEvent[] {
  const at = (event: ProgressEvent): ConditionEvent => ({ kind: 'bound-proof', line: 6, bound, event });
  return [
    at({ kind: 'prepared', cutpoints: 1, verificationConditions: 3 }),
    ...Array.from({ length: steps }, (_, i) => [
      at({ kind: 'step-start', index: i, total: 7, template: '1x2', widths }),
      at({ kind: 'step-encoded', index: i, variables: 100, clauses: 1000 + i }),
      at({ kind: 'step-done', index: i, stats: stepStats(i === steps - 1 ? 'sat' : 'unsat', 1000 + i) as never }),
    ]).flat(),
    at({ kind: 'checking' }),
  ];
}

function searchEvents(events: readonly ConditionEvent[], maxAnswers?: number): SearchEvent[] {
  const sent: WorkerMessage[] = [];
  const on = conditionEvents((m) => sent.push(m), maxAnswers);
  for (const e of events) on(e);
  return sent.flatMap((m) => (m.type === 'search' ? [m.event] : []));
}

test('nonterm: a ranking function\'s proof steps are rows, named by the loop and the candidate', (t) => {
  const ranking = (event: ProgressEvent): ConditionEvent => ({ kind: 'ranking-proof', line: 7, ranking: 'x', event });
  const events = searchEvents([
    ranking({ kind: 'step-start', index: 0, total: 7, template: '1x2', widths }),
    ranking({ kind: 'step-done', index: 0, stats: stepStats('sat', 800) as never }),
  ]);
  const starts = events.filter((e) => e.kind === 'row-start');
  t.like(starts[0], { purpose: 'line 7, ranked by x: step 1 of 7' });
  t.deepEqual(events.filter((e) => e.kind === 'row-done').map((e) => e.kind === 'row-done' && e.result), ['sat']);
});

test('bounds: each proof\'s steps are rows of their own, numbered on across proofs and the wp queries after them', (t) => {
  const events = searchEvents([
    ...proof('10', 2),
    ...proof('y + 9', 3),
    { kind: 'sampled', passing: 20, failing: 3 },
    { kind: 'query-start', index: 0, conjuncts: 1, template: '1x2', purpose: 'locally weakest precondition' },
    { kind: 'query-done', index: 0, stats: { conjuncts: 1, template: '1x2', variables: 50, clauses: 500, satMillis: 9, result: 'unsat' } },
  ]);
  const starts = events.filter((e) => e.kind === 'row-start');
  t.deepEqual(starts.map((e) => e.kind === 'row-start' && e.index), [0, 1, 2, 3, 4, 5], 'no row is overwritten by a later proof');
  t.like(starts[0], { template: '1x2', widths: '3/7/1', purpose: 'line 6, at most 10: step 1 of 7' });
  t.like(starts[2], { purpose: 'line 6, at most y + 9: step 1 of 7' });
  t.like(starts[5], { widths: '1 conj', purpose: 'locally weakest precondition' });
  const done = events.filter((e) => e.kind === 'row-done');
  t.deepEqual(done.map((e) => e.kind === 'row-done' && [e.index, e.clauses, e.result]), [[0, 1000, 'unsat'], [1, 1001, 'sat'], [2, 1000, 'unsat'], [3, 1001, 'unsat'], [4, 1002, 'sat'], [5, 500, 'unsat']]);
  const phases = events.flatMap((e) => (e.kind === 'phase' ? [e.text] : []));
  t.deepEqual(phases, [
    'line 6, at most 10: 1 cut-points, 3 VCs; sampling runs',
    'line 6, at most 10: checking the certificate with z3',
    'line 6, at most y + 9: 1 cut-points, 3 VCs; sampling runs',
    'line 6, at most y + 9: checking the certificate with z3',
    'sampled 20 passing, 3 failing inputs',
  ]);
});

test('a second wp search (bounds: another loop) numbers its queries after the first one\'s', (t) => {
  const query = (index: number): ConditionEvent[] => [
    { kind: 'query-start', index, conjuncts: 1, template: '1x2', purpose: 'p' },
    { kind: 'query-done', index, stats: { conjuncts: 1, template: '1x2', variables: 1, clauses: 1, satMillis: 1, result: 'unsat' } },
  ];
  const events = searchEvents([{ kind: 'sampled', passing: 1, failing: 1 }, ...query(0), ...query(1), { kind: 'sampled', passing: 1, failing: 1 }, ...query(0)]);
  t.deepEqual(events.flatMap((e) => (e.kind === 'row-start' || e.kind === 'row-done' ? [e.index] : [])), [0, 0, 1, 1, 2, 2]);
  const rows = new RowNumbers();
  t.is(rows.start('proof', 0), 0);
  t.is(rows.start('proof', 1), 1);
  t.is(rows.of('proof', 1), 1);
  t.is(rows.start('proof', 0), 2, 'numbers starting again: the next proof');
});

test('sp: the reached states, each candidate going to the checker, and the neighbours are phases; one answer fills the bar', (t) => {
  const events = searchEvents([
    { kind: 'reached', states: 76, line: 4 },
    { kind: 'certifying', expression: 'x >= 0 && y >= x + 2', from: 'observed' },
    { kind: 'neighbours', expression: 'x >= 0 && y >= x + 2', count: 4 },
    { kind: 'certifying', expression: 'x == n', from: 'query' },
    { kind: 'answer', expression: 'x >= 0 && y >= x + 2' },
  ], 1);
  t.deepEqual(events.flatMap((e) => (e.kind === 'phase' ? [e.text] : [])), [
    '76 reached states at line 4; trying the postcondition they suggest',
    'certifying x >= 0 && y >= x + 2 (suggested by the reached states)',
    'x >= 0 && y >= x + 2: looking for a replayed witness against each of 4 neighbours',
    'certifying x == n',
    'answer: x >= 0 && y >= x + 2',
  ]);
  t.like(events[events.length - 1], { kind: 'bar', label: 'answers 1/1', fraction: 1 });
});

function open() {
  const runner = new FakeRunner();
  const ui = render(<App file="fig1.c" source={fig1} modes={MODES} runner={runner} color={false} columns={100} rows={30} />);
  const frame = () => ui.lastFrame() ?? '';
  const waitFor = (re: RegExp) => until(() => re.test(frame()), frame);
  const press = async (keys: string) => {
    ui.stdin.write(keys);
    await new Promise((r) => setTimeout(r, 30));
  };
  return { runner, frame, waitFor, press };
}

/** Posts the worker's messages for library events, as the mode's run would (one mapping per run). */
function poster(post: (m: WorkerMessage) => void, maxAnswers?: number): (events: readonly ConditionEvent[]) => void {
  const on = conditionEvents(post, maxAnswers);
  return (events) => events.forEach(on);
}

test.serial('bounds in the UI: the proofs\' steps fill the Search pane while the run goes on, the current one named', async (t) => {
  const { runner, frame, waitFor, press } = open();
  await until(() => runner.jobs.length === 1, frame);
  await press('b');
  await until(() => runner.jobs.length === 2, frame);
  const job = runner.current;
  t.is(job.job.mode, 'bounds');
  boundsEvents(job.post)({ kind: 'sampled', runs: 281, nonTerminating: 8 });
  await waitFor(/running: 281 concrete runs \(8 did not return\)/);
  boundsEvents(job.post)({ kind: 'candidate', line: 6, bound: '10' });
  const postAll = poster(job.post);
  postAll(proof('10', 2));
  postAll(proof('y + 9', 3).slice(0, 3)); // the second proof's first step is solving
  await waitFor(/running: line 6, at most y \+ 9: step 1 of 7/);
  t.regex(frame(), /1 1x2\s+3\/7\/1\s+100\s+1000\s+40\s+unsat/);
  t.regex(frame(), /2 1x2\s+3\/7\/1\s+100\s+1001\s+40\s+sat/);
  t.regex(frame(), /3 1x2\s+3\/7\/1\s+100\s+1000\s+solving/);
  t.regex(frame(), /searching…/);
});

test.serial('sp in the UI: the phases of a search that makes no solver query are shown as they come', async (t) => {
  const { runner, frame, waitFor, press } = open();
  await until(() => runner.jobs.length === 1, frame);
  await press('s');
  await until(() => runner.jobs.length === 2, frame);
  const job = runner.current;
  t.is(job.job.mode, 'sp');
  const postAll = poster(job.post, 1);
  postAll([{ kind: 'reached', states: 76, line: 4 }]);
  await waitFor(/running: 76 reached states at line 4/);
  postAll([{ kind: 'certifying', expression: 'x >= 0 && y >= x + 2', from: 'observed' }]);
  await waitFor(/running: certifying x >= 0 && y >= x \+ 2 \(suggested by the reached states\)/);
  postAll([{ kind: 'neighbours', expression: 'x >= 0 && y >= x + 2', count: 4 }]);
  await waitFor(/against each of 4 neighbours/);
  postAll([{ kind: 'answer', expression: 'x >= 0 && y >= x + 2' }]);
  await waitFor(/\[#{20}\] answers 1\/1/);
});

test.serial('every mode\'s key starts its run with the Search pane running, and a switch mid-run leaves no row of the old run', async (t) => {
  const { runner, frame, waitFor, press } = open();
  await until(() => runner.jobs.length === 1, frame);
  for (const [i, m] of MODES.entries()) {
    if (i > 0) {
      await press(m.key);
      await until(() => runner.jobs.length === i + 1, frame);
    }
    const job = runner.current;
    t.is(job.job.mode, m.id);
    t.true(runner.jobs.slice(0, -1).every((j) => j.cancelled), 'the earlier runs were cancelled');
    await waitFor(new RegExp(`mode ${m.id}`));
    await waitFor(/running: starting/);
    t.notRegex(frame(), /solving/, 'no row of the previous run');
    job.post({ type: 'search', event: { kind: 'row-start', index: 0, template: '1x2', widths: `run ${i}` } });
    await waitFor(new RegExp(`1 1x2\\s+run ${i}.*solving`));
  }
});
