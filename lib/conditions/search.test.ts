// SearchContext's time: a part of the search (a further wp answer) gets its own window inside the
// whole search's deadline, and running out of the window is not running out of the search.
import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import { preconditionProblem } from './prepare.js';
import { SearchContext } from './search.js';

const PROGRAM = parseProgram('void f(int n) { int x = 0; while (x < n) x++; assert(x >= 0); }\n', 'f.c');

test('a part of the search ends at its window, the whole search at its deadline', async (t) => {
  const problem = preconditionProblem(PROGRAM, undefined, 'paths');
  const ctx = new SearchContext(PROGRAM, problem, { timeoutMs: 60_000 });
  t.true(ctx.remaining() > 50_000);
  ctx.limitNextPart(30);
  t.true(ctx.remaining() <= 30);
  await new Promise((resolve) => setTimeout(resolve, 60));
  t.true(ctx.timedOut);
  t.false(ctx.deadlinePassed);
  // A window never extends the search beyond its deadline.
  ctx.limitNextPart(10 * 60_000);
  t.false(ctx.timedOut);
  t.true(ctx.remaining() <= 60_000);
});
