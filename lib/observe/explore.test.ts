// Breadth-first exploration: every run is a real run (its stream replays it), and it reaches the
// extreme states random streams miss.
import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import { runProgram } from '../interpreter/index.js';
import { exploreRuns } from './explore.js';

const SPEEDOMETER = `void SP1() { int d = 0; int t = 0; int s = 0;
  while (nondet()) { if (nondet()) { t++; s = 0; } else if (nondet()) { if (s <= 4) { d++; s++; } } }
}
`;

test('exploring streams over {0, 1} reaches five increments within one second, and every run replays', (t) => {
  const program = parseProgram(SPEEDOMETER, 'speedometer.c');
  const runs = [...exploreRuns(program, 'SP1', { maxRuns: 3000 })];
  t.true(runs.length > 100);
  const exits = runs.filter((r) => r.outcome.kind === 'exit');
  const final = (r: (typeof runs)[number], v: string) => [...(r.trace ?? [])].reverse().find((step) => step.values.has(v))?.values.get(v) ?? 0n;
  t.true(exits.some((r) => final(r, 'd') === 5n && final(r, 's') === 5n && final(r, 't') === 0n), 'd == s == 5 in the first second');
  t.true(exits.some((r) => final(r, 'd') === 6n && final(r, 't') === 1n), 'd == 6 after one whole second');
  for (const r of runs.slice(0, 200)) {
    const again = runProgram(program, { entry: 'SP1', nondet: r.nondetConsumed, nondetDefault: null, recordTrace: true });
    t.is(again.outcome.kind, r.outcome.kind);
    t.is(again.steps, r.steps);
  }
  // Prefixes that stop in the same state are expanded once: far fewer runs than 2^depth.
  t.true(runs.every((r) => r.nondetConsumed.every((v) => v === 0n || v === 1n)));
});
