// SearchContext's budget: a part of the search (a further wp answer) gets its own window of solver
// queries inside the whole search's deadline, and running out of the window is not running out of
// the search.
import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import { preconditionProblem } from './condition-problem.js';
import { Problem } from '../problem/prepare.js';
import { SearchContext } from './search.js';
import { Deadline } from '../limits.js';
import { resolveSettings, withDeadline } from '../settings.js';

const PROGRAM = parseProgram('void f(int n) { int x = 0; while (x < n) x++; assert(x >= 0); }\n', 'f.c');

test('a part of the search ends after its queries, the whole search at its deadline', async (t) => {
  const problem = preconditionProblem(Problem.of(PROGRAM), 'paths');
  const ctx = new SearchContext(PROGRAM, problem, resolveSettings({ timeoutMs: 60_000 }), {});
  t.true(ctx.deadline.left > 50_000);
  const step = ctx.steps[0]!;
  ctx.limitNextPart(1);
  t.false(ctx.timedOut);
  await ctx.query({ step, conjuncts: 1 }, 'test');
  t.true(ctx.timedOut);
  t.false(ctx.deadlinePassed);
  // A new window counts from the queries made so far.
  ctx.limitNextPart(5);
  t.false(ctx.timedOut);
  // A window never extends the search beyond its deadline.
  const expired = new SearchContext(PROGRAM, problem, resolveSettings({ timeoutMs: 1 }), {});
  await new Promise((resolve) => setTimeout(resolve, 20));
  expired.limitNextPart(1000);
  t.true(expired.timedOut);
  t.true(expired.deadlinePassed);
  // A deadline handed down by a caller of several searches is the search's.
  const handedDown = new SearchContext(PROGRAM, problem, withDeadline(resolveSettings({ timeoutMs: 60_000 }), new Deadline(-1)), {});
  t.true(handedDown.deadlinePassed);
});
