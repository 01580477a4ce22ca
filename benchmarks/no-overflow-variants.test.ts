// The no-overflow property on SV-COMP tasks (issue 18): three tasks of ../shared/bench/svcomp whose
// no-overflow verdict is true, each changed in one place so that a signed operation overflows, must
// be found unsafe with a run the interpreter replayed to the overflow; the originals must never be
// unsafe. The tasks are read from the shared folder (not copied here); skipped when it is absent.
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseProgram } from '../lib/frontend/index.js';
import { verifyPortfolio } from '../lib/portfolio/index.js';
import { runProgram } from '../lib/interpreter/index.js';
import { shutdownZ3 } from '../lib/sat/z3-context.js';
import { Problem } from '../lib/problem/prepare.js';
import { resolveSettings } from '../lib/settings.js';

const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'bench', 'svcomp');

test.after.always(() => shutdownZ3());

interface Variant {
  readonly task: string;
  /** The one change: text of the task, and what replaces it. */
  readonly from: string;
  readonly to: string;
  readonly why: string;
}

const VARIANTS: readonly Variant[] = [
  { task: 'loop-zilu/benchmark04_conjunctive.i', from: 'n>=1 && k>=n && j==0', to: 'n>=1 && j==0', why: 'k no longer bounded below: k-- overflows at INT_MIN' },
  { task: 'loop-zilu/benchmark02_linear.i', from: 'while (i < n)', to: 'while (i <= n)', why: 'i++ runs once more: with n == INT_MAX it overflows' },
  { task: 'loop-zilu/benchmark17_conjunctive.i', from: 'i==0 && k==0', to: 'i==0 && k>=0', why: 'k may start at INT_MAX: k++ overflows' },
];

for (const v of VARIANTS) {
  test(`no-overflow: ${v.task} with ${v.why} is unsafe, with a replayed overflowing run; the original is not`, async (t) => {
    const file = join(benchDir, v.task);
    if (!existsSync(file)) {
      t.log(`skipped: no benchmark folder at ${benchDir}`);
      t.pass();
      return;
    }
    const original = readFileSync(file, 'utf8');
    t.true(original.includes(v.from), `the task no longer contains '${v.from}'`);
    const options = { property: 'no-overflow' as const };
    const variant = parseProgram(original.replace(v.from, v.to), file, options);
    const r = await verifyPortfolio(Problem.of(variant), resolveSettings({ timeoutMs: 60_000 }), { jobs: 2 });
    t.is(r.verdict, 'unsafe', r.reason);
    const cex = r.counterexample!;
    t.true(cex.replayed);
    // The run reaches an overflow check that fails; for reachability the same run stops there.
    const replay = runProgram(variant, { inputs: cex.inputs, nondet: cex.nondet, nondetDefault: null });
    t.is(replay.outcome.kind, 'assertion-failed');
    const reach = runProgram(parseProgram(original.replace(v.from, v.to), file), { inputs: cex.inputs, nondet: cex.nondet, nondetDefault: null });
    t.is(reach.outcome.kind, 'overflow');
    const unchanged = await verifyPortfolio(Problem.of(parseProgram(original, file, options)), resolveSettings({ timeoutMs: 15_000 }), { jobs: 2 });
    t.not(unchanged.verdict, 'unsafe');
  });
}
