// The differential fuzzer in CI: a few programs through the interpolation engines and concrete
// execution must show no disagreement; a wrong engine must be caught.
import test from 'ava';
import { parseProgram } from '../lib/frontend/index.js';
import { shutdownZ3 } from '../lib/sat/z3-context.js';
import { mulberry32 } from '../lib/random.js';
import { ProgramGenerator } from './fuzz/generate.js';
import { concreteFailure, fuzzProgram } from './fuzz/differential.js';
import { allEngines } from './differential-fuzz.js';

test.after.always(() => shutdownZ3());

test('generated programs parse, and the same seed gives the same programs', (t) => {
  const a = new ProgramGenerator(mulberry32(5));
  const b = new ProgramGenerator(mulberry32(5));
  for (let k = 0; k < 30; k++) {
    const source = a.program();
    t.is(source, b.program());
    t.notThrows(() => parseProgram(source, 'fuzz.c'));
  }
});

test('a few random programs: every engine agrees with the others and with concrete runs', async (t) => {
  const generator = new ProgramGenerator(mulberry32(11));
  const engines = allEngines(5_000).filter((e) => e.name !== 'constraints');
  for (let k = 0; k < 4; k++) {
    const outcome = await fuzzProgram(parseProgram(generator.program(), 'fuzz.c'), engines, { runs: 100, seed: k });
    t.deepEqual(outcome.disagreements, []);
    t.is(outcome.verdicts.length, engines.length);
  }
});

test('an engine that says safe on a program a concrete run fails is a disagreement', async (t) => {
  const program = parseProgram('int main() { int x = __VERIFIER_nondet_int(); if (x > 2) { __VERIFIER_assert(x < 3); } return 0; }', 'bad.c');
  t.truthy(concreteFailure(program, 100, 1));
  const honest = allEngines(5_000).find((e) => e.name === 'lazy-annotation')!;
  const liar = { name: 'liar', run: async (p: typeof program) => ({ ...(await honest.run(p)), verdict: 'safe' as const }) };
  const outcome = await fuzzProgram(program, [honest, liar], { runs: 100 });
  t.is(outcome.disagreements.length, 2);
  t.regex(outcome.disagreements[0]!, /liar says safe but the concrete run/);
  t.regex(outcome.disagreements[1]!, /lazy-annotation says unsafe but liar says safe/);
});
