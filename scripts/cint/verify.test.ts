// The verifier's gcc-differential tester (scripts/cint/verify-*.ts, issue 18) in CI: on a fixed set of
// random verification tasks, no "safe" may meet an input on which gcc fails the assertion, and every
// counterexample must fail it in gcc; and the tester's own parts — the tasks, the gcc harness, the
// verdicts (a deliberately wrong answer must be caught) — are checked on their own.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { CProgram, Expr, Stmt } from './ast.js';
import { farkasText } from './print.js';
import type { DataModel, IntType } from './types.js';
import { checkTasks, isTaskFailure, type FarkasAnswer, type TaskVerdict } from './verify-compare.js';
import { VerifyBatch, verifyGccText } from './verify-gcc.js';
import { generateTask, probeInputs, randomInputs, referenceRun, runTasks, taskInputs, type VerifyTask } from './verify-task.js';
import { mulberry32 } from '../../lib/random.js';

test.before(() => {
  try {
    execFileSync('gcc', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('the gcc-differential tests need gcc on PATH');
  }
});

// ---- The acceptance test -----------------------------------------------------------------------------
// 24 tasks (12 ILP32, 12 LP64; seed 18): no disagreement with gcc. Each answer takes well under a
// second on an idle machine; the bound is generous so that a loaded one gives the same answers.
// Investigate a failure with the CLI, which saves each disagreeing task:
//   node dist/scripts/gcc-verify-differential.js --count 24 --seed 18 --timeout 60
test('issue 18: farkas verify agrees with gcc on 24 random verification tasks (ILP32 and LP64)', async (t) => {
  const report = await checkTasks(runTasks(24, 18, 'both'), { timeoutMs: 60_000, hardTimeoutMs: 180_000 });
  const failing = report.tasks.filter((r) => isTaskFailure(r.verdict));
  for (const r of failing) t.log(`${r.id} ${r.verdict}: ${r.detail.join('; ')}`);
  t.log(Object.entries(report.counts).map(([v, n]) => `${v} ${n}`).join(', '));
  t.is(failing.length, 0);
  // The set exercises what it is meant to: most tasks get a definite verdict, checked by gcc.
  t.true(report.counts.safe + report.counts.unsafe >= 8);
  t.true(report.counts.unsafe >= 1);
  for (const r of report.tasks.filter((x) => x.verdict === 'unsafe' || x.verdict === 'safe')) t.true(r.runs.length > 0 && r.runs.every((run) => run.gcc !== null), r.id);
});

// ---- The tasks ---------------------------------------------------------------------------------------

test('tasks are deterministic, end with one assertion, and run without undefined behaviour on their sample inputs', (t) => {
  const expectations = new Set<string>();
  let nondets = 0;
  for (let k = 0; k < 30; k++) {
    const dataModel: DataModel = k % 2 === 0 ? 'ILP32' : 'LP64';
    const a = generateTask(4, k, { dataModel });
    const b = generateTask(4, k, { dataModel });
    t.is(farkasText(a.program), farkasText(b.program));
    t.deepEqual([...a.program.inputs], [...b.program.inputs]);
    const text = farkasText(a.program);
    const lines = text.trimEnd().split('\n');
    t.regex(lines[lines.length - 2]!, /^ {2}__VERIFIER_assert\(.*\);$/, text);
    t.is(lines.filter((l) => l.includes('__VERIFIER_assert')).length, 1);
    t.false(/\br_/.test(text), text); // no result globals
    for (const q of a.program.nondets ?? []) t.regex(text, new RegExp(`^ {2}[A-Za-z _]+ ${q.name} = __VERIFIER_nondet_\\w+\\(\\);$`, 'm'));
    nondets += a.program.nondets?.length ?? 0;
    t.deepEqual(taskInputs(a.program).map((q) => q.name).sort(), [...a.program.inputs.keys()].sort());
    const run = referenceRun(a.program, a.program.inputs);
    t.is(run.kind, 'exit', text);
    for (const f of a.failing) t.like(referenceRun(a.program, f), { kind: 'exit', assertion: false });
    if (a.expectation === 'holds') t.is(a.failing.length, 0);
    else t.true(a.failing.length > 0);
    expectations.add(a.expectation);
  }
  t.true(nondets > 5);
  t.deepEqual([...expectations].sort(), ['fails', 'holds', 'mixed']);
  t.not(farkasText(generateTask(4, 0, { dataModel: 'LP64' }).program), farkasText(generateTask(5, 0, { dataModel: 'LP64' }).program));
});

test('probe inputs: the sample, boundaries of every input type, and the failing inputs found', (t) => {
  let k = 0;
  let task = generateTask(4, k, { dataModel: 'LP64' });
  while (taskInputs(task.program).length < 2 || task.failing.length === 0) task = generateTask(4, ++k, { dataModel: 'LP64' });
  const probes = probeInputs(task);
  t.true(probes.length >= 20);
  const keys = probes.map((m) => [...m].map(([k, v]) => `${k}=${v}`).join(' '));
  t.is(new Set(keys).size, keys.length);
  t.deepEqual(probes[0], task.program.inputs);
  for (const q of taskInputs(task.program)) t.true(probes.some((m) => m.get(q.name) === 0n));
  for (const f of task.failing) t.true(probes.some((m) => [...f].every(([k, v]) => m.get(k) === v)));
});

// ---- The gcc harness ---------------------------------------------------------------------------------

const v = (name: string): Expr => ({ kind: 'var', name });
const lit = (value: bigint): Expr => ({ kind: 'lit', value, base: 'dec', suffix: '' });

/** g0 = a0 + 1; g0 = a0 / -1 (INT_MIN / -1 traps after the sanitizer's report); assert(g0 != 7). */
function handTask(): CProgram {
  const body: Stmt[] = [
    { kind: 'assign', op: '=', target: 'g0', value: { kind: 'binary', op: '+', left: v('a0'), right: lit(1n) } },
    { kind: 'assign', op: '=', target: 'g0', value: { kind: 'binary', op: '/', left: v('a0'), right: { kind: 'unary', op: '-', arg: lit(1n) } } },
  ];
  const types = new Map<string, IntType>([['g0', 'int'], ['a0', 'int'], ['n0', 'uchar']]);
  return {
    id: 'hand', dataModel: 'LP64', globals: [{ name: 'g0', type: 'int', init: lit(3n) }], params: [{ name: 'a0', type: 'int' }],
    nondets: [{ name: 'n0', type: 'uchar' }], locals: [], body, assertion: { kind: 'binary', op: '!=', left: v('g0'), right: lit(7n) },
    inputs: new Map([['a0', 0n], ['n0', 0n]]), types,
  };
}

test('the harness runs each input in a fresh process: every overflow is reported, and the markers are read', async (t) => {
  const p = handTask();
  const batch = await VerifyBatch.compile([p]);
  try {
    const max = 2147483647n;
    const min = -2147483648n;
    const [a, b, c, d, e, f] = await batch.runs([
      { task: 0, input: { params: [max], nondet: [1n] } },
      { task: 0, input: { params: [max], nondet: [1n] } },
      { task: 0, input: { params: [min], nondet: [1n] } },
      { task: 0, input: { params: [6n], nondet: [1n] } },
      { task: 0, input: { params: [-7n], nondet: [1n] } },
      { task: 0, input: { params: [-7n], nondet: [] } },
    ]);
    // The sanitizer reports a source location once per process: the second run must see it too.
    for (const r of [a!, b!]) {
      t.is(r.ubBefore.length, 1);
      t.is(r.ubBefore[0]!.kind, 'overflow');
      t.regex(farkasText(p).split('\n')[r.ubBefore[0]!.line - 1]!, /g0 = \(a0 \+ 1\);/);
      t.is(r.crashed, null);
    }
    // (gcc computes x / -1 as a negation, which does not trap; a trap would be reported as a crash.)
    t.regex(c!.ubBefore[0]!.message, /division of -2147483648 by -1/);
    t.false(c!.assertionFailed);
    t.like(d, { assertionFailed: false, ubBefore: [], crashed: null, nondetExhausted: false, nondetUsed: 1 });
    t.like(e, { assertionFailed: true, ubBefore: [], crashed: null, nondetExhausted: false });
    t.like(f, { assertionFailed: true, nondetExhausted: true });
    // The reference evaluator agrees.
    t.like(referenceRun(p, new Map([['a0', max], ['n0', 1n]])), { kind: 'ub', ub: 'overflow' });
    t.like(referenceRun(p, new Map([['a0', min], ['n0', 1n]])), { kind: 'ub', ub: 'overflow' });
    t.like(referenceRun(p, new Map([['a0', 6n], ['n0', 1n]])), { kind: 'exit', assertion: true });
    t.like(referenceRun(p, new Map([['a0', -7n], ['n0', 1n]])), { kind: 'exit', assertion: false });
  } finally {
    batch.dispose();
  }
  // The stand-alone text of a saved case does the same.
  const dir = mkdtempSync(join(tmpdir(), 'vcint-test-'));
  try {
    const src = join(dir, 'case.c');
    writeFileSync(src, verifyGccText(p, { params: [-7n], nondet: [1n] }));
    execFileSync('gcc', ['-O0', '-fsanitize=undefined', '-w', '-o', join(dir, 'case'), src]);
    t.regex(execFileSync(join(dir, 'case')).toString(), /^CINT-ASSERT-FAILED\ndone\n$/);
    // The nondet input on the same line in both texts.
    t.regex(verifyGccText(p, { params: [0n], nondet: [0n] }).split('\n')[3]!, /unsigned char n0 = \(unsigned char\)\(\{ unsigned long long cint_nondet\(void\); cint_nondet\(\); \}\);/);
    t.regex(farkasText(p).split('\n')[3]!, /unsigned char n0 = __VERIFIER_nondet_uchar\(\);/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- The verdicts ------------------------------------------------------------------------------------

/** A task with parameters, nondet inputs, an input that fails the assertion and one that passes it
 * (neither with undefined behaviour), and one with undefined behaviour. */
function taskWithWitnesses(): { task: VerifyTask; failing: ReadonlyMap<string, bigint>; passing: ReadonlyMap<string, bigint>; ub: ReadonlyMap<string, bigint> } {
  const rand = mulberry32(99);
  for (let k = 0; k < 400; k++) {
    const task = generateTask(77, k, { dataModel: k % 2 === 0 ? 'ILP32' : 'LP64' });
    const p = task.program;
    if (task.expectation !== 'mixed' || p.params.length === 0 || (p.nondets ?? []).length === 0) continue;
    let passing: ReadonlyMap<string, bigint> | undefined;
    let ub: ReadonlyMap<string, bigint> | undefined;
    for (let j = 0; j < 300 && (!passing || !ub); j++) {
      const m = j === 0 ? p.inputs : randomInputs(rand, p);
      const r = referenceRun(p, m);
      if (r.kind === 'exit' && r.assertion) passing ??= m;
      if (r.kind === 'ub' && r.ub === 'overflow') ub ??= m;
    }
    if (passing && ub) return { task, failing: task.failing[0]!, passing, ub };
  }
  throw new Error('no task with every kind of witness');
}

function cexOf(task: VerifyTask, inputs: ReadonlyMap<string, bigint>): Extract<FarkasAnswer, { kind: 'verdict' }> {
  const p = task.program;
  return {
    kind: 'verdict', verdict: 'unsafe', millis: 0,
    counterexample: { inputs: new Map(p.params.map((q) => [q.name, inputs.get(q.name)!])), nondet: (p.nondets ?? []).map((q) => inputs.get(q.name)!), line: 99 },
  };
}

test('verdicts: a wrong "safe" or a counterexample gcc does not fail is a disagreement; right answers pass', async (t) => {
  const { task, failing, passing, ub } = taskWithWitnesses();
  const p = task.program;
  const cex = cexOf(task, failing);
  const first = p.params[0]!;
  const outOfRange = cexOf(task, new Map([...failing, [first.name, (1n << 64n) + 5n]]));
  const answers: [FarkasAnswer, TaskVerdict][] = [
    [{ kind: 'verdict', verdict: 'safe', millis: 0 }, 'wrong-safe'],
    [cexOf(task, passing), 'wrong-unsafe'],
    [cexOf(task, ub), 'wrong-unsafe'],
    [outOfRange, 'wrong-unsafe'],
    [{ ...cex, counterexample: { ...cex.counterexample!, nondet: [] } }, 'wrong-unsafe'],
    [{ kind: 'verdict', verdict: 'unsafe', millis: 0 }, 'wrong-unsafe'], // no counterexample
    [cex, 'unsafe'],
    [{ kind: 'verdict', verdict: 'unknown', reason: 'timeout', millis: 0 }, 'unknown'],
    [{ kind: 'error', message: 'boom', millis: 0 }, 'error'],
  ];
  const tasks = answers.map((_, k) => ({ ...task, id: `${task.id}/${k}` }));
  const report = await checkTasks(tasks, { verifier: async (x) => answers[Number(x.id.split('/')[1])]![0] });
  report.tasks.forEach((r, k) => {
    t.is(r.verdict, answers[k]![1], `${k}: ${r.detail.join('; ')}`);
    t.is(isTaskFailure(r.verdict), !['unsafe', 'unknown', 'safe'].includes(answers[k]![1]));
  });
  t.truthy(report.tasks[0]!.witness);
  t.is(report.tasks[0]!.witness!.gcc!.assertionFailed, true);
  t.regex(report.tasks[2]!.detail[0]!, /undefined behaviour/);
  t.regex(report.tasks[3]!.detail[0]!, /outside its type/);
  t.regex(report.tasks[4]!.detail[0]!, /nondet values/);
});

test('verdicts: a "safe" that no probe contradicts stands', async (t) => {
  // A task whose assertion holds on every input: the final value of an unsigned char is at most 255.
  const task = generateTask(4, 0, { dataModel: 'LP64' });
  const p: CProgram = { ...task.program, globals: [...task.program.globals, { name: 'gz', type: 'uchar', init: null }], types: new Map([...task.program.types, ['gz', 'uchar']]) };
  const x = taskInputs(p)[0];
  const body: readonly Stmt[] = x ? [...p.body, { kind: 'assign', op: '=', target: 'gz', value: v(x.name) }] : p.body;
  const safe: VerifyTask = { ...task, program: { ...p, body, assertion: { kind: 'binary', op: '<=', left: v('gz'), right: lit(255n) } }, expectation: 'holds', failing: [] };
  const report = await checkTasks([safe], { verifier: async () => ({ kind: 'verdict', verdict: 'safe', millis: 0 }) });
  t.is(report.tasks[0]!.verdict, 'safe', report.tasks[0]!.detail.join('; '));
  t.true(report.tasks[0]!.runs.length >= 10);
});
