// The verdicts of the verifier's gcc-differential tester (issue 18): each verification task
// (verify-task.ts) is verified by farkas (`verify --function f`, a time bound) and its answer checked
// natively (verify-gcc.ts: gcc with the undefined-behaviour sanitizer):
//
//   safe          farkas said "safe", and gcc ran f without failing the assertion on every probe input
//                 (sample, boundary and random inputs, and failing inputs the reference evaluator found)
//                 on which it saw no undefined behaviour
//   unsafe        farkas gave a counterexample, and gcc, run on exactly its inputs and nondet values,
//                 failed the assertion with no undefined behaviour before it
//   unknown       farkas gave no definite answer (not a failure), also when its worker thread was
//                 terminated at the hard bound or ran out of memory (verify-farkas.ts)
//   wrong-safe    farkas said "safe" and gcc failed the assertion on a probe input without undefined
//                 behaviour before it
//   wrong-unsafe  farkas's counterexample does not fail the assertion in gcc, or gcc reports undefined
//                 behaviour before the failure (farkas replays only runs without signed overflow), or
//                 the counterexample is not a run of the C program (a value outside its type's range,
//                 too few nondet values)
//   error         farkas threw (a front-end rejection included: the generator writes only what the
//                 front end is meant to support)
//   tester-error  gcc and the reference evaluator disagree on a run gcc made, or gcc could not compile
//                 or run the task: a bug of the tester (or a blind spot of gcc), not of farkas
import type { CProgram } from './ast.js';
import { GCC_FLAGS } from './gcc.js';
import { farkasText } from './print.js';
import { inRange } from './types.js';
import { verifyJob, WorkerVerifier, type FarkasAnswer, type VerifyJob } from './verify-farkas.js';
import { VerifyBatch, verifyGccText, type GccRun, type InputVector } from './verify-gcc.js';
import { probeInputs, referenceRun, type VerifyTask } from './verify-task.js';

export type { FarkasAnswer } from './verify-farkas.js';

export type TaskVerdict = 'safe' | 'unsafe' | 'unknown' | 'wrong-safe' | 'wrong-unsafe' | 'error' | 'tester-error';

export const TASK_VERDICTS: readonly TaskVerdict[] = ['safe', 'unsafe', 'unknown', 'wrong-safe', 'wrong-unsafe', 'error', 'tester-error'];

/** Disagreements between farkas and gcc, and tester errors: the CLI's exit code 1, the test's assertion. */
export function isTaskFailure(v: TaskVerdict): boolean {
  return v === 'wrong-safe' || v === 'wrong-unsafe' || v === 'error' || v === 'tester-error';
}

export interface VerifyCheckOptions {
  /** farkas's time bound per task; default 5 s. */
  readonly timeoutMs?: number;
  /** Portfolio workers (verifyPortfolio); default 1, the sequential search (verify). */
  readonly jobs?: number;
  /** Tasks per gcc compilation; default 25. */
  readonly batch?: number;
  /** Random inputs the reference evaluator tries for failing probes when farkas says "safe"; default 300. */
  readonly search?: number;
  /** Terminate farkas on a task after this long; default twice the time bound plus 5 s. */
  readonly hardTimeoutMs?: number;
  /** farkas, replaceable (the tests give wrong answers on purpose); default: verify in a worker
   * thread, terminated at the hard bound. */
  readonly verifier?: (task: VerifyTask, options: { timeoutMs: number; jobs: number }) => Promise<FarkasAnswer>;
  readonly gcc?: string;
  /** Called after each task. */
  readonly onTask?: (report: TaskReport, done: number, total: number) => void;
}

/** One gcc run of a task, with the reference evaluator's view of it. */
export interface CheckedRun {
  readonly input: InputVector;
  /** Every input by name (parameters and nondet inputs). */
  readonly inputs: ReadonlyMap<string, bigint>;
  readonly gcc: GccRun | null;
}

export interface TaskReport {
  readonly id: string;
  readonly task: VerifyTask;
  readonly verdict: TaskVerdict;
  readonly detail: readonly string[];
  readonly farkas: FarkasAnswer;
  /** The gcc runs made (the counterexample's, or the probes'). */
  readonly runs: readonly CheckedRun[];
  /** The run that shows the disagreement (the counterexample, the failing probe), if any. */
  readonly witness?: CheckedRun;
}

export interface VerifyReport {
  readonly tasks: readonly TaskReport[];
  readonly counts: Readonly<Record<TaskVerdict, number>>;
}

/** farkas's `verify --function f` on the task's farkas text, under its data model, in this thread
 * (no hard bound: checkTasks uses a worker thread). */
export function verifyInProcess(task: VerifyTask, options: { timeoutMs: number; jobs: number }): Promise<FarkasAnswer> {
  return verifyJob(jobOf(task, options));
}

function jobOf(task: VerifyTask, options: { timeoutMs: number; jobs: number }): VerifyJob {
  return { text: farkasText(task.program), file: `vcint-${task.id}.c`, dataModel: task.program.dataModel, timeoutMs: options.timeoutMs, jobs: options.jobs };
}

/** The input vector of a run given every input by name (the task's parameters and nondet inputs). */
export function vectorOf(p: CProgram, inputs: ReadonlyMap<string, bigint>): InputVector {
  return { params: p.params.map((q) => inputs.get(q.name)!), nondet: (p.nondets ?? []).map((q) => inputs.get(q.name)!) };
}

/** A counterexample as a run: problems that make it no run of the C program (empty: none). */
function counterexampleRun(p: CProgram, cex: { inputs: ReadonlyMap<string, bigint>; nondet: readonly bigint[] }): { input: InputVector; inputs: Map<string, bigint>; problems: string[] } {
  const problems: string[] = [];
  const inputs = new Map<string, bigint>();
  const params: bigint[] = [];
  for (const q of p.params) {
    const v = cex.inputs.get(q.name);
    if (v === undefined) {
      problems.push(`the counterexample has no value for parameter ${q.name}`);
      params.push(0n);
      continue;
    }
    if (!inRange(v, q.type, p.dataModel)) problems.push(`the counterexample's ${q.name} = ${v} is outside its type ${q.type}`);
    params.push(v);
    inputs.set(q.name, v);
  }
  const nondets = p.nondets ?? [];
  if (cex.nondet.length < nondets.length) problems.push(`the counterexample has ${cex.nondet.length} nondet values, f reads ${nondets.length}`);
  nondets.forEach((q, i) => {
    const v = cex.nondet[i];
    if (v === undefined) return;
    if (!inRange(v, q.type, p.dataModel)) problems.push(`the counterexample's nondet value ${v} for ${q.name} is outside its type ${q.type}`);
    inputs.set(q.name, v);
  });
  return { input: { params, nondet: cex.nondet }, inputs, problems };
}

function describeUb(run: GccRun): string {
  return run.ubBefore.map((u) => `line ${u.line}: ${u.message}`).join('; ');
}

/** gcc's run against the reference evaluator's on the same inputs: a tester problem, or null. */
function testerProblem(p: CProgram, r: CheckedRun): string | null {
  if (!r.gcc) return 'gcc did not run the task';
  const ref = referenceRun(p, r.inputs);
  const show = [...r.inputs].map(([k, v]) => `${k}=${v}`).join(' ');
  if (ref.kind === 'error') return `the reference evaluator failed on ${show}: ${ref.message}`;
  const gccUb = r.gcc.ubBefore.length > 0;
  if (r.gcc.crashed && !gccUb) return `the gcc run on ${show} died (${r.gcc.crashed}) without a sanitizer report`;
  if (r.gcc.nondetExhausted) return null; // not a run of the task: judged as farkas's problem
  if (ref.kind === 'ub') return gccUb ? null : `on ${show} the reference evaluator found undefined behaviour (line ${ref.line}: ${ref.message}) that gcc did not report`;
  if (gccUb) return `on ${show} gcc reported '${r.gcc.ubBefore[0]!.message}' on line ${r.gcc.ubBefore[0]!.line}, the reference evaluator no undefined behaviour`;
  if (ref.assertion === r.gcc.assertionFailed) return `on ${show} gcc ${r.gcc.assertionFailed ? 'failed' : 'passed'} the assertion, the reference evaluator did not`;
  return null;
}

/** The verdict on a task from farkas's answer and gcc's runs (the counterexample's run, or the probes'). */
export function judgeTask(task: VerifyTask, farkas: FarkasAnswer, runs: readonly CheckedRun[], cexProblems: readonly string[] = []): TaskReport {
  const base = { id: task.id, task, farkas, runs };
  const p = task.program;
  if (farkas.kind === 'error') return { ...base, verdict: 'error', detail: [`farkas failed: ${farkas.message}`] };
  const problems = runs.flatMap((r) => testerProblem(p, r) ?? []);
  const tester = (farkasSaid: string): TaskReport => ({ ...base, verdict: 'tester-error', detail: [...problems, `(farkas: ${farkasSaid})`] });
  if (farkas.verdict === 'unknown') return { ...base, verdict: 'unknown', detail: farkas.reason ? [farkas.reason] : [] };
  if (farkas.verdict === 'safe') {
    const failing = runs.find((r) => r.gcc && r.gcc.assertionFailed && r.gcc.ubBefore.length === 0 && !r.gcc.crashed && !r.gcc.nondetExhausted);
    if (problems.length > 0) return tester(failing ? 'safe, gcc failed the assertion' : 'safe');
    if (failing) {
      const show = [...failing.inputs].map(([k, v]) => `${k}=${v}`).join(' ');
      return { ...base, verdict: 'wrong-safe', witness: failing, detail: [`farkas says safe; gcc fails the assertion on ${show} without undefined behaviour`] };
    }
    return { ...base, verdict: 'safe', detail: [] };
  }
  // unsafe
  const run = runs[0];
  if (!farkas.counterexample || !run) return { ...base, verdict: 'wrong-unsafe', detail: ['farkas says unsafe without a counterexample'] };
  const show = [...run.inputs].map(([k, v]) => `${k}=${v}`).join(' ') + (farkas.counterexample.nondet.length > 0 ? ` (nondet ${farkas.counterexample.nondet.join(', ')})` : '');
  const detail: string[] = [...cexProblems];
  const g = run.gcc;
  if (g) {
    if (g.nondetExhausted) detail.push(`gcc's run read more nondet values than the counterexample has`);
    if (g.ubBefore.length > 0) detail.push(`gcc reports undefined behaviour${g.assertionFailed ? ' before the assertion fails' : ''}: ${describeUb(g)}`);
    if (!g.assertionFailed) detail.push(`gcc does not fail the assertion${g.crashed ? ` (the run died: ${g.crashed})` : ''}`);
  }
  if (problems.length > 0 && cexProblems.length === 0) return tester(`unsafe with counterexample ${show}${detail.length ? `: ${detail.join('; ')}` : ''}`);
  if (detail.length > 0) return { ...base, verdict: 'wrong-unsafe', witness: run, detail: [`farkas's counterexample ${show} (line ${farkas.counterexample.line}): ${detail.join('; ')}`] };
  return { ...base, verdict: 'unsafe', detail: [] };
}

/** Verifies every task with farkas and checks each answer with gcc; gcc compiles a batch while farkas
 * verifies it, and then runs what farkas's answers ask for. */
export async function checkTasks(tasks: readonly VerifyTask[], options: VerifyCheckOptions = {}): Promise<VerifyReport> {
  const batchSize = Math.max(1, options.batch ?? 25);
  const timeoutMs = options.timeoutMs ?? 5000;
  const jobs = options.jobs ?? 1;
  const worker = options.verifier ? null : new WorkerVerifier(options.hardTimeoutMs !== undefined ? { hardTimeoutMs: () => options.hardTimeoutMs! } : {});
  const verifier = options.verifier ?? ((task: VerifyTask, o: { timeoutMs: number; jobs: number }) => worker!.verify(jobOf(task, o)));
  const counts = Object.fromEntries(TASK_VERDICTS.map((v) => [v, 0])) as Record<TaskVerdict, number>;
  const reports: TaskReport[] = [];
  try {
    await checkBatches(tasks, { ...options, batchSize, timeoutMs, jobs, verifier }, counts, reports);
  } finally {
    await worker?.close();
  }
  return { tasks: reports, counts };
}

async function checkBatches(
  tasks: readonly VerifyTask[],
  options: VerifyCheckOptions & { batchSize: number; timeoutMs: number; jobs: number; verifier: NonNullable<VerifyCheckOptions['verifier']> },
  counts: Record<TaskVerdict, number>,
  reports: TaskReport[],
): Promise<void> {
  const { batchSize, timeoutMs, jobs, verifier } = options;
  for (let start = 0; start < tasks.length; start += batchSize) {
    const chunk = tasks.slice(start, start + batchSize);
    const compiling = VerifyBatch.compile(chunk.map((t) => t.program), options.gcc !== undefined ? { gcc: options.gcc } : {});
    compiling.catch(() => {}); // awaited below
    const answers: FarkasAnswer[] = [];
    for (const task of chunk) answers.push(await verifier(task, { timeoutMs, jobs }));
    const batch = await compiling;
    try {
      // The runs each answer asks for.
      const plans = chunk.map((task, k) => {
        const a = answers[k]!;
        const p = task.program;
        if (a.kind !== 'verdict' || a.verdict === 'unknown') return { runs: [] as { input: InputVector; inputs: ReadonlyMap<string, bigint> }[], cexProblems: [] as string[] };
        if (a.verdict === 'unsafe') {
          if (!a.counterexample) return { runs: [], cexProblems: [] };
          const c = counterexampleRun(p, a.counterexample);
          return { runs: [{ input: c.input, inputs: c.inputs }], cexProblems: c.problems };
        }
        return { runs: probeInputs(task, options.search !== undefined ? { search: options.search } : {}).map((inputs) => ({ input: vectorOf(p, inputs), inputs })), cexProblems: [] };
      });
      const requests = plans.flatMap((plan, k) => plan.runs.map((r) => ({ task: k, input: r.input })));
      const results = await batch.runs(requests);
      let next = 0;
      chunk.forEach((task, k) => {
        const plan = plans[k]!;
        const runs: CheckedRun[] = plan.runs.map((r) => ({ ...r, gcc: results[next++] ?? null }));
        const compileError = batch.compileErrors.get(k);
        const report = compileError && runs.length > 0
          ? { id: task.id, task, farkas: answers[k]!, runs, verdict: 'tester-error' as const, detail: [`gcc could not compile the task: ${compileError}`] }
          : judgeTask(task, answers[k]!, runs, plan.cexProblems);
        counts[report.verdict]++;
        reports.push(report);
        options.onTask?.(report, reports.length, tasks.length);
      });
    } finally {
      batch.dispose();
    }
  }
}

/** A disagreeing task written up for `vcint-<id>.c` and `vcint-<id>.gcc.c`: the farkas text with what
 * is known in a trailing comment (after the program, so its lines stay those of the reports), and the
 * gcc text running f once on the witness (the counterexample, or the failing probe input). */
export function describeTask(r: TaskReport): { farkas: string; gcc: string } {
  const p = r.task.program;
  const run = r.witness ?? r.runs[0] ?? { input: vectorOf(p, p.inputs), inputs: p.inputs, gcc: null };
  const show = (m: ReadonlyMap<string, bigint>) => [...m].map(([k, v]) => `${k}=${v}`).join(' ');
  const farkas = r.farkas.kind === 'error' ? `error: ${r.farkas.message}`
    : `${r.farkas.verdict}${r.farkas.reason ? ` (${r.farkas.reason})` : ''}${r.farkas.counterexample ? `; counterexample ${show(r.farkas.counterexample.inputs)} nondet [${r.farkas.counterexample.nondet.join(', ')}] line ${r.farkas.counterexample.line}` : ''}`;
  const g = run.gcc;
  const gcc = g ? `${g.assertionFailed ? 'assertion failed' : 'assertion held'}${g.ubBefore.length ? `; undefined behaviour: ${describeUb(g)}` : ''}${g.crashed ? `; crashed (${g.crashed})` : ''}${g.nondetExhausted ? '; ran out of nondet values' : ''}` : '(not run)';
  const ref = referenceRun(p, run.inputs);
  const reference = ref.kind === 'exit' ? `assertion ${ref.assertion ? 'holds' : 'fails'}` : ref.kind === 'ub' ? `undefined behaviour on line ${ref.line}: ${ref.message}` : `error: ${ref.message}`;
  const params = p.params.map((q) => `--input ${q.name}=${run.inputs.get(q.name) ?? '?'}`).join(' ');
  const comment = [
    `verdict: ${r.verdict}`,
    ...r.detail.map((d) => `  ${d}`),
    `data model: ${p.dataModel}; generated as '${r.task.expectation}'`,
    `inputs of the gcc run: ${show(run.inputs)}`,
    `farkas: ${farkas}`,
    `gcc on those inputs: ${gcc}`,
    `reference evaluator on those inputs: ${reference}`,
    `reproduce: npx farkas verify vcint-${p.id}.c --data-model ${p.dataModel} --function f`,
    `           npx farkas run vcint-${p.id}.c --data-model ${p.dataModel} --function f ${params}${run.input.nondet.length ? ` --nondet ${run.input.nondet.join(',')}` : ''} --nondet-default none`,
    `           gcc ${GCC_FLAGS.join(' ')} vcint-${p.id}.gcc.c -o vcint && ./vcint`,
  ];
  const text = `${farkasText(p)}\n/*\n${comment.map((l) => ` * ${l.replace(/\*\//g, '* /')}`).join('\n')}\n */\n`;
  return { farkas: text, gcc: verifyGccText(p, run.input) };
}

