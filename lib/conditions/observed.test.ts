// The data-driven first try of wp's neighbourhood search: a precondition from the sampled inputs,
// proved by the checker, then weakened while no failing input is found.
import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { checkInvariants } from '../certify/certificate.js';
import { equivalent } from '../certify/lia.js';
import { candidateInputs, inputRunner, type InputRun } from './points.js';
import { conjunction } from './neighbours.js';
import { observedPrecondition } from './observed.js';
import { preconditionProblem } from './condition-problem.js';
import { Problem } from '../problem/prepare.js';
import { Deadline, WorkBudget } from '../limits.js';

test.after.always(async () => {
  await shutdownZ3();
});

function sampled(source: string, fn: string) {
  const problem = preconditionProblem(Problem.of(parseProgram(source, 'p.c'), fn), 'paths');
  const { prepared } = problem;
  const runner = inputRunner(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints);
  const passing: InputRun[] = [];
  const failing: InputRun[] = [];
  for (const input of candidateInputs(problem.targetVariables)) (runner.run(input).failure ? failing : passing).push(runner.run(input));
  return { prepared, runner, params: problem.targetVariables, passing, failing };
}

// The assertion fails exactly when x + y > 8, after a loop that keeps k between 0 and 3.
const SHIFT = `void Shift(int x, int y) {
  int k = 0;
  while (k < 3) {
    k = k + 1;
  }
  assert(x + y + k <= 11);
}
`;

test('the proposed precondition is proved by the checker and weakened to the boundary the failing inputs draw', async (t) => {
  const s = sampled(SHIFT, 'Shift');
  const found = await observedPrecondition({ ...s, work: new WorkBudget(50_000_000), deadline: new Deadline(600_000) }, s.passing);
  t.truthy(found);
  const relation = conjunction(found!.atoms);
  // The answer is the weakest one: x + y <= 8 (up to how it is written).
  const expected = F.compare(L.add(L.variable('x'), L.variable('y')), '<=', L.constant(8));
  const simplified = F.toC(relation);
  t.true(F.evaluate(relation, (v) => (v === 'x' ? 8n : 0n)), simplified);
  t.false(F.evaluate(relation, (v) => (v === 'x' ? 9n : 0n)), simplified);
  t.is((await equivalent(relation, expected)).status, 'valid', simplified);
  // Its invariants, checked again here: the program is safe under it.
  const check = await checkInvariants(s.prepared.preparedProgram, s.prepared.function, found!.invariants, { precondition: F.and(s.prepared.precondition, relation) });
  t.true(check.valid);
  // No known failing input is inside it.
  t.false(s.failing.some((f) => F.evaluate(relation, (v) => f.input.get(v) ?? 0n)));
});
