// Ghost quotients: they never change a run of the program, they always equal C's division where the
// updates keep them, and they let verify prove remainders that linear invariants cannot state.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { parseProgram } from '../frontend/index.js';
import { runProgram } from '../interpreter/index.js';
import { mulberry32 } from '../random.js';
import { withRemainderGhosts } from './remainder-ghosts.js';
import { Problem } from '../problem/prepare.js';
import { resolveSettings } from '../settings.js';

const STEPS = `int main() {
  int n = __VERIFIER_nondet_int();
  int i = 0;
  int j = __VERIFIER_nondet_int();
  int h = n / 2;
  while (i < n) {
    if (__VERIFIER_nondet_int()) i = i + 6; else i = i + 3;
    j = 2 * i - j + 1;
    h = h + 2;
  }
  assert(i % 3 == 0);
  assert(j / 5 <= j);
  assert(h % 2 == h - 2 * (h / 2));
  return 0;
}
`;

test('the ghosts track i / 3, j / 5, i / 5 (j is assigned from i), h / 2 and n / 2 (h is the quotient n / 2); the program variables run as before', (t) => {
  const program = parseProgram(STEPS, 'steps.c');
  const ghosted = withRemainderGhosts(program, 'main');
  t.truthy(ghosted);
  t.deepEqual(ghosted!.ghosts.map((g) => `${g.variable}/${g.modulus}`).filter((g) => !g.startsWith('__')).sort(), ['h/2', 'i/3', 'i/5', 'j/5', 'n/2']);
  // h := n / 2 is `q := ?; assume(q is n / 2); h := q`: q is tracked too, its ghost drawn after the assume.
  t.is(ghosted!.ghosts.filter((g) => g.variable.startsWith('__tmp')).length, 1);
  const proc = ghosted!.program.procedures.get('main')!;
  // Ghost code only adds locations: the loop head keeps its id in both programs.
  const heads = new Set(proc.locations.filter((l) => l.loopHeader).map((l) => l.id));
  t.is(heads.size, 1);
  const next = mulberry32(7);
  let iterations = 0;
  for (let k = 0; k < 200; k++) {
    const nondet = Array.from({ length: 40 }, () => BigInt(Math.floor(next() * 61) - 30));
    // Quotients (the program's and j's ghost after its nondet read) take their one possible value.
    const options = { nondet, nondetDefault: 0n, preferPinned: true, watch: { locations: heads } };
    const original = runProgram(program, { ...options, maxSteps: 5000 });
    const run = runProgram(ghosted!.program, { ...options, maxSteps: 50_000 });
    t.is(run.outcome.kind, original.outcome.kind);
    const states = [...run.watched!.values()].flat();
    const originalStates = [...original.watched!.values()].flat();
    t.deepEqual(states.map((s) => [...s].filter(([v]) => !v.startsWith('__q_'))), originalStates.map((s) => [...s]));
    iterations += states.length;
    // At the loop head every ghost equals C's quotient (truncating toward zero, negative j too).
    for (const state of states) {
      for (const g of ghosted!.ghosts) t.is(state.get(g.ghost), state.get(g.variable)! / g.modulus);
    }
  }
  t.true(iterations > 400, `${iterations} loop-head states`);
});

test('no division, no ghosts', (t) => {
  t.is(withRemainderGhosts(parseProgram('int main() { int i = 0; while (i < 10) i++; assert(i == 10); return 0; }\n', 'p.c'), 'main'), null);
});

test('verify proves i % 3 == 0 after a loop adding 6 or 3, with the invariant i == 3 * (i / 3)', async (t) => {
  const { verify } = await import('../index.js');
  const source = readFileSync('lib/ir/testing/multiple-of-three.c', 'utf8');
  const r = await verify(Problem.of(parseProgram(source, 'multiple.c')), resolveSettings({ timeoutMs: 60_000 }));
  t.is(r.verdict, 'safe', r.reason);
  t.true(r.certified);
  t.true(r.invariants.some((inv) => inv.expression.includes('i == 3 * (i / 3)')), r.invariants.map((i) => i.expression).join('; '));
});
