// bounds, sp and the ranking-function search report their progress (issue 24: the UI showed nothing while they ran), and listening
// changes nothing about their answers.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseProgram } from '../frontend/index.js';
import { bounds } from '../termination/bounds.js';
import { sp } from './sp.js';
import { rankLoops } from '../termination/ranking.js';
import type { ConditionEvent } from './types.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { Problem } from '../problem/prepare.js';
import { resolveSettings } from '../settings.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const load = (rel: string) => parseProgram(readFileSync(root + rel, 'utf8'), rel);
test.after.always(() => shutdownZ3());

test('bounds: each candidate\'s proof reports the constraint engine\'s steps, with the loop\'s line and the bound; the result is the same without a listener', async (t) => {
  const program = load('benchmarks/bounds/window.c');
  const events: ConditionEvent[] = [];
  const heard = await bounds(Problem.of(program), resolveSettings({ timeoutMs: 120_000 }), { onProgress: (e) => events.push(e) });
  const proofs = events.flatMap((e) => (e.kind === 'bound-proof' ? [e] : []));
  t.true(proofs.length > 0, 'the proof of the loop\'s bound reports its steps');
  t.true(proofs.every((e) => e.line === 3 && e.bound === heard.loops[0]!.bound), JSON.stringify(proofs.map((e) => [e.line, e.bound])));
  const kinds = proofs.map((e) => e.event.kind);
  t.is(kinds[0], 'prepared');
  t.true(kinds.includes('step-start') && kinds.includes('step-done'), kinds.join(' '));
  // A step's start comes before its end, and the steps count from 0.
  const first = proofs.find((e) => e.event.kind === 'step-start');
  t.like(first?.event, { kind: 'step-start', index: 0 });
  const quiet = await bounds(Problem.of(program), resolveSettings({ timeoutMs: 120_000 }));
  t.deepEqual(quiet.loops.map((l) => [l.bound, l.precondition, l.certified]), heard.loops.map((l) => [l.bound, l.precondition, l.certified]));
  t.is(quiet.runs, heard.runs);
  t.is(quiet.stats.satCalls, heard.stats.satCalls);
});

test('sp: the reached states, the candidate sent to the checker, its neighbours and the answer are reported in that order; the result is the same without a listener', async (t) => {
  const program = load('benchmarks/conditions/count-to-n.c');
  const events: ConditionEvent[] = [];
  const heard = await sp(Problem.of(program), resolveSettings({ timeoutMs: 120_000 }), { onProgress: (e) => events.push(e) });
  t.truthy(heard.postcondition, heard.reason);
  const kinds = events.map((e) => e.kind).filter((k) => k !== 'query-start' && k !== 'query-done');
  t.is(kinds[0], 'reached');
  t.true(kinds.includes('certifying'), kinds.join(' '));
  t.true(kinds.indexOf('certifying') < kinds.indexOf('neighbours'), kinds.join(' '));
  t.is(kinds[kinds.length - 1], 'answer');
  const reached = events.find((e) => e.kind === 'reached');
  t.like(reached, { kind: 'reached', line: heard.line });
  t.true(reached!.kind === 'reached' && reached!.states > 0);
  const neighbours = [...events].reverse().find((e) => e.kind === 'neighbours');
  t.like(neighbours, { kind: 'neighbours', count: heard.postcondition!.neighbours.length, expression: heard.postcondition!.expression });
  const quiet = await sp(Problem.of(program), resolveSettings({ timeoutMs: 120_000 }));
  t.is(quiet.postcondition?.expression, heard.postcondition!.expression);
  t.deepEqual(quiet.postcondition?.neighbours.map((n) => n.expression), heard.postcondition!.neighbours.map((n) => n.expression));
  t.is(quiet.stats.queries.length, heard.stats.queries.length);
});

test('ranking: each candidate\'s proof reports the constraint engine\'s steps, with the loop\'s line and the candidate; the result is the same without a listener', async (t) => {
  const program = parseProgram('void f(int x, int y) {\n  while (x > 0) {\n    x = x - 1;\n    y = y + 1;\n  }\n}\n', 'down.c');
  const events: ConditionEvent[] = [];
  const heard = await rankLoops(program, 'f', [], resolveSettings({ timeoutMs: 120_000 }), { onProgress: (e) => events.push(e) });
  t.true(heard.complete, heard.reason);
  const proofs = events.flatMap((e) => (e.kind === 'ranking-proof' ? [e] : []));
  t.true(proofs.length > 0, 'the ranking proof reports its steps');
  t.true(proofs.every((e) => e.line === 2));
  t.true(proofs.some((e) => e.ranking === heard.ranked[0]!.ranking), JSON.stringify(proofs.map((e) => e.ranking)));
  t.true(proofs.some((e) => e.event.kind === 'step-done'));
  const quiet = await rankLoops(program, 'f', [], resolveSettings({ timeoutMs: 120_000 }));
  t.deepEqual(quiet.ranked.map((r) => r.ranking), heard.ranked.map((r) => r.ranking));
});
