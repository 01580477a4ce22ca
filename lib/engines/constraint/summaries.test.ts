// Interprocedural verification with procedure summaries: preparation and end to end.
import test from 'ava';
import { parseProgram } from '../../frontend/index.js';
import * as F from '../../ir/formula.js';
import { inputCopyName, returnName } from '../../ir/summary-names.js';
import { runProgram } from '../../interpreter/index.js';
import { shutdownZ3 } from '../../sat/z3-context.js';
import { prepareInterprocedural } from './summary-prepare.js';
import { Problem } from '../../problem/prepare.js';
import { verify } from './verify.js';
import { resolveSettings } from '../../settings.js';

test.after.always(async () => {
  await shutdownZ3();
});

const SUM = `int sum(int n) {
  if (n <= 0) return 0;
  return n + sum(n - 1);
}
int main() {
  int k = __VERIFIER_nondet_int();
  if (k < 0) return 0;
  int r = sum(k);
  assert(r >= k);
  return 0;
}
`;

const EVEN_ODD = `int odd(int n, int p);
int even(int n, int p) { if (n == 0) return p; return odd(n - 1, 1 - p); }
int odd(int n, int p) { if (n == 0) return p; return even(n - 1, 1 - p); }
int main() { int r = even(4, 0); assert(r == 0 || r == 1); return 0; }
`;

test('preparation: mutually recursive bodies, summary interfaces, input copies at the body entry', (t) => {
  const program = parseProgram(EVEN_ODD, 'eo.c');
  t.true(Problem.of(program).needsSummaries);
  const prepared = prepareInterprocedural(Problem.of(program), 'paths');
  t.deepEqual(prepared.procedures.map((p) => p.name), ['even', 'odd']);
  for (const p of prepared.procedures) {
    t.deepEqual(p.inputs, ['n', 'p']);
    t.is(p.iface.returnName, returnName(p.name));
    // The first edges of the body copy the inputs.
    const proc = p.body.cut.proc;
    const first = proc.edges.find((e) => e.from === proc.entry)!;
    t.deepEqual(first.stmt, { kind: 'assign', target: inputCopyName('n'), expr: { coeffs: new Map([['n', 1n]]), constant: 0n } });
    // Each body has a VC that reaches the exit (the post-condition) through a summarised call.
    t.true(p.body.vcs.some((vc) => vc.to === proc.exit && (vc.calls?.length ?? 0) === 1));
  }
  t.true(prepared.entry.vcs.some((vc) => vc.calls?.[0]?.callee === 'even'));
  // A program without recursion needs none.
  t.false(Problem.of(parseProgram('int f(int x) { return x + 1; }\nint main() { assert(f(1) == 2); return 0; }\n', 'f.c'), undefined).needsSummaries);
});

test('preparation: globals read are summary inputs; a global written is localised and returned by its own procedure', (t) => {
  // (main sets limit: a global nothing writes would be read as its constant initial value.)
  const reads = parseProgram('int limit;\nint climb(int n) { if (n >= limit) return n; return climb(n + 1); }\nint main() { limit = 10; int r = climb(0); assert(r >= 10); return 0; }\n', 'g.c');
  const prepared = prepareInterprocedural(Problem.of(reads), 'paths');
  t.deepEqual(prepared.procedures[0]!.inputs, ['n', 'limit']);
  const call = prepared.entry.vcs.flatMap((vc) => vc.calls ?? [])[0]!;
  t.true(call.subst.has('limit'));
  const writes = parseProgram('int g;\nint f(int n) { g = n; if (n <= 0) return 0; return f(n - 1); }\nint main() { int r = f(3); assert(r == 0); return 0; }\n', 'w.c');
  const localised = prepareInterprocedural(Problem.of(writes), 'paths');
  t.deepEqual(localised.procedures.map((p) => [p.name, p.inputs]), [['f', ['n', 'g!loc']], ['f!g', ['n', 'g!loc']]]);
  // The analysed function assigns the global from the call of f!g.
  const entryCalls = localised.entry.vcs.flatMap((vc) => vc.calls ?? []).map((c) => c.callee);
  t.deepEqual([...new Set(entryCalls)].sort(), ['f', 'f!g']);
  // An assertion in a summarised procedure becomes a ghost output checked by the caller.
  const asserts = parseProgram('int f(int n) { assert(n >= 0); if (n <= 0) return 0; return f(n - 1); }\nint main() { int r = f(-5); return 0; }\n', 'a.c');
  const ghost = prepareInterprocedural(Problem.of(asserts), 'paths');
  t.deepEqual(ghost.procedures.map((p) => p.name), ['f', 'f!err']);
  t.true(ghost.procedures.every((p) => p.body.cut.proc.edges.every((e) => e.stmt.kind !== 'assert')));
  t.true(ghost.entry.vcs.some((vc) => vc.conclusion.kind === 'assertion'));
});

test('a recursive sum is proved safe with a certified summary that holds on real calls', async (t) => {
  const program = parseProgram(SUM, 'sum.c');
  const result = await verify(Problem.of(program), resolveSettings());
  t.is(result.verdict, 'safe', result.reason);
  t.true(result.certified);
  const summary = result.summaries?.find((s) => s.procedure === 'sum');
  t.truthy(summary);
  // The pairs are true of the procedure: on real calls, pre(n) implies post(n, sum(n)).
  for (let n = -3n; n <= 8n; n++) {
    const run = runProgram(program, { entry: 'sum', inputs: new Map([['n', n]]) });
    if (run.outcome.kind !== 'exit') throw new Error('sum did not return');
    const value = run.outcome.returnValue!;
    const env = (v: string) => (v === 'n' ? n : v === returnName('sum') ? value : 0n);
    for (const pair of summary!.pairs) t.true(!F.evaluate(pair.preFormula, env) || F.evaluate(pair.postFormula, env), `n = ${n}`);
  }
  t.is(result.stats.at(-1)?.summaries, 1);
});

test('a false claim about a recursive sum is unsafe, with a replayed counterexample', async (t) => {
  const program = parseProgram('int sum(int n) { if (n <= 0) return 0; return n + sum(n - 1); }\nint main() { int r = sum(3); assert(r != 6); return 0; }\n', 'bad.c');
  const result = await verify(Problem.of(program), resolveSettings());
  t.is(result.verdict, 'unsafe');
  t.is(result.counterexample?.line, 2);
  t.true(result.counterexample?.replayed);
  // An assertion inside a recursive procedure that fails: the run of the original program is the counterexample.
  const inner = await verify(Problem.of(parseProgram('int f(int n) { assert(n >= 0); if (n <= 0) return 0; return f(n - 1); }\nint main() { int r = f(-5); return 0; }\n', 'a.c')), resolveSettings());
  t.is(inner.verdict, 'unsafe');
  t.is(inner.counterexample?.line, 1);
  // With every call inside the assertion's range, the ghost error output proves it.
  const innerSafe = await verify(Problem.of(parseProgram('int f(int n) { assert(n >= 0); if (n <= 0) return 0; return f(n - 1); }\nint main() { int r = f(5); return 0; }\n', 'b.c')), resolveSettings());
  t.is(innerSafe.verdict, 'safe', innerSafe.reason);
  t.true(innerSafe.certified);
  t.truthy(innerSafe.summaries?.find((s) => s.procedure === 'f!err'));
});

test('an analysed function that is recursive itself: its calls reach a summarised copy, transformed once', async (t) => {
  // The assertion sits in the analysed function, which the summarised copy shares: before the copy had
  // a name of its own, each transformation put the assertion back into a recursive procedure, and
  // preparation went on until the heap ran out.
  const source = 'int f(int n) {\n  if (n <= 0) return 0;\n  int r = f(n - 1);\n  assert(r == 0);\n  return r;\n}\n';
  const program = parseProgram(source, 'self.c');
  const prepared = prepareInterprocedural(Problem.of(program, 'f'), 'paths');
  t.deepEqual(prepared.procedures.map((p) => p.name), ['f!err', 'f!rec']);
  t.true(prepared.procedures.every((p) => p.body.cut.proc.edges.every((e) => e.stmt.kind !== 'assert')));
  t.deepEqual([...new Set(prepared.entry.vcs.flatMap((vc) => vc.calls ?? []).map((c) => c.callee))].sort(), ['f!err', 'f!rec']);
  const result = await verify(Problem.of(program, 'f'), resolveSettings());
  t.is(result.verdict, 'safe', result.reason);
  t.true(result.certified);
  // The copy's summary is printed as the function's.
  t.deepEqual(result.summaries?.map((s) => s.procedure).sort(), ['f', 'f!err']);
  // A false assertion there is found by a run.
  const bad = await verify(Problem.of(parseProgram(source.replace('r == 0', 'r == 1'), 'bad.c'), 'f'), resolveSettings());
  t.is(bad.verdict, 'unsafe');
  t.true(bad.counterexample?.replayed);
});

test('McCarthy 91 (Fig. 3(b)) is proved with two pairs guessed from its calls, true of the function', async (t) => {
  const program = parseProgram('int M(int n) { if (n > 100) return n - 10; return M(M(n + 11)); }\nvoid IP2() { int result = M(19) + M(119); assert(result == 200); }\n', 'm91.c');
  const result = await verify(Problem.of(program, 'IP2'), resolveSettings());
  t.is(result.verdict, 'safe', result.reason);
  t.true(result.certified);
  const pairs = result.summaries?.find((s) => s.procedure === 'M')?.pairs ?? [];
  t.is(pairs.length, 2);
  t.is(result.stats.at(-1)?.summaries, 2);
  for (let n = -20n; n <= 140n; n += 3n) {
    const value = n > 100n ? n - 10n : 91n;
    const env = (v: string) => (v === 'n' ? n : v === returnName('M') ? value : 0n);
    for (const pair of pairs) t.true(!F.evaluate(pair.preFormula, env) || F.evaluate(pair.postFormula, env), `n = ${n}`);
  }
  // Together the pairs cover both calls of IP2.
  for (const n of [19n, 119n]) t.true(pairs.some((p) => F.evaluate(p.preFormula, (v) => (v === 'n' ? n : 0n))));
});
