// The verdicts of the gcc-differential tester: each generated program is run natively (gcc with the
// undefined-behaviour sanitizer, gcc.ts) and by farkas's concrete interpreter on the same inputs, and
// the two are compared. gcc is the oracle; the reference evaluator (reference.ts) checks the tester
// itself, so that a difference can be blamed on farkas.
//
//   agree             farkas ran to the end and every global equals gcc's
//   differ            a value differs, farkas rejected the program (the generator only writes what the
//                     front end is meant to support), or its run ended otherwise without gcc's UB
//   ub-agree          gcc's first report is a signed overflow and farkas stopped with 'overflow' on
//                     the same line
//   ub-differ         gcc reported a signed overflow and farkas did not (or on another line), or farkas
//                     reported an overflow where gcc found no undefined behaviour
//   skipped-ub-other  gcc's first report is undefined behaviour farkas does not model (a shift): farkas's
//                     run is not compared
//   tester-error      gcc and the reference evaluator disagree, or gcc could not compile or run the
//                     program: a bug of the tester (or a blind spot of gcc), not of farkas
//
// With `prepared`, the program farkas analyses is run too (prepareAnalysis with the 'paths' cut-set:
// calls inlined, each loop body unfolded into its paths; what the samplers and replays run) and judged
// the same way against the same gcc run, so that its interpreter runs are checked against gcc as well.
// A program whose prepared run fails where the parsed one does not gets the prepared run's verdict.
import { InputError } from '../../lib/diagnostics.js';
import { AnalysisUnsupported, prepareAnalysis } from '../../lib/problem/prepare.js';
import { parseProgram } from '../../lib/frontend/index.js';
import type { Program } from '../../lib/ir/cfg.js';
import { runProgram } from '../../lib/interpreter/index.js';
import { PathExplosionError } from '../../lib/vc/cutset.js';
import type { CProgram } from './ast.js';
import { GCC_FLAGS, runGccBatch, type GccOptions, type GccProgramResult } from './gcc.js';
import { farkasText, gccText, printBody } from './print.js';
import { evaluate, type ReferenceResult } from './reference.js';

export type Verdict = 'agree' | 'differ' | 'ub-agree' | 'ub-differ' | 'skipped-ub-other' | 'tester-error';

export const VERDICTS: readonly Verdict[] = ['agree', 'differ', 'ub-agree', 'ub-differ', 'skipped-ub-other', 'tester-error'];

/** The verdicts that are failures (the CLI's exit code 1, the test's assertion). */
export function isFailure(v: Verdict): boolean {
  return v === 'differ' || v === 'ub-differ' || v === 'tester-error';
}

export type FarkasResult =
  | { readonly kind: 'rejected'; readonly message: string }
  | { readonly kind: 'error'; readonly message: string }
  | {
      readonly kind: 'run';
      /** The interpreter's outcome kind: 'exit', 'overflow', 'assume-blocked', … */
      readonly outcome: string;
      /** Where a run that did not exit stopped. */
      readonly line: number | null;
      readonly globals: ReadonlyMap<string, bigint>;
    };

/** The run of the program prepared for analysis, judged against gcc like the parsed program's. */
export interface PreparedReport {
  /** null: prepareAnalysis declined f (too many loop-body paths), so there is no prepared program. */
  readonly verdict: Verdict | null;
  readonly detail: readonly string[];
  readonly farkas: FarkasResult | null;
}

export interface ProgramReport {
  readonly id: string;
  readonly program: CProgram;
  /** The parsed program's verdict, or the prepared program's when only that one is a failure. */
  readonly verdict: Verdict;
  /** Why, one line per reason (empty for agree). */
  readonly detail: readonly string[];
  readonly gcc: GccProgramResult;
  readonly farkas: FarkasResult;
  readonly reference: ReferenceResult;
  /** With CheckOptions.prepared. */
  readonly prepared?: PreparedReport;
}

export interface Report {
  readonly programs: readonly ProgramReport[];
  readonly counts: Readonly<Record<Verdict, number>>;
  /** With CheckOptions.prepared: the prepared programs' verdicts ('declined': no prepared program). */
  readonly preparedCounts?: Readonly<Record<Verdict | 'declined', number>>;
}

export interface CheckOptions extends GccOptions {
  /** Programs per gcc compilation; default 100. */
  readonly batch?: number;
  /** Bound on each farkas run; default 1,000,000 steps. */
  readonly maxSteps?: number;
  /** Also run the program prepared for analysis (prepareAnalysis with the 'paths' cut-set: calls
   * inlined, each loop body unfolded into its paths), which the samplers and replays run, on the same
   * inputs, and judge it against the same gcc run. */
  readonly prepared?: boolean;
  /** Called after each batch with the programs checked so far. */
  readonly onProgress?: (done: number, total: number, counts: Readonly<Record<Verdict, number>>) => void;
}

/** farkas's parse and concrete run of the program's farkas text on its inputs. */
export function runFarkas(p: CProgram, maxSteps = 1_000_000): FarkasResult {
  return runFarkasOn(p, maxSteps, (program) => program)!;
}

/** The same run of the program prepared for analysis; null when prepareAnalysis declines f. */
export function runPrepared(p: CProgram, maxSteps = 1_000_000): FarkasResult | null {
  return runFarkasOn(p, maxSteps, (program) => {
    try {
      return prepareAnalysis(program, 'f', 'paths').preparedProgram;
    } catch (e) {
      if (e instanceof PathExplosionError || e instanceof AnalysisUnsupported) return null;
      throw e;
    }
  });
}

function runFarkasOn(p: CProgram, maxSteps: number, transform: (program: Program) => Program | null): FarkasResult | null {
  let parsed;
  try {
    parsed = parseProgram(farkasText(p), `cint-${p.id}.c`, { dataModel: p.dataModel });
  } catch (e) {
    if (e instanceof InputError) return { kind: 'rejected', message: e.message };
    return { kind: 'error', message: `front end: ${e instanceof Error ? e.stack ?? e.message : String(e)}` };
  }
  let program;
  try {
    program = transform(parsed);
  } catch (e) {
    return { kind: 'error', message: `preparing the program: ${e instanceof Error ? e.stack ?? e.message : String(e)}` };
  }
  if (program === null) return null;
  try {
    const r = runProgram(program, { entry: 'f', inputs: new Map(p.inputs), maxSteps });
    const pos = (r.outcome as { pos?: { line: number } | null }).pos;
    return { kind: 'run', outcome: r.outcome.kind as string, line: pos ? pos.line : null, globals: r.globals };
  } catch (e) {
    return { kind: 'error', message: `interpreter: ${e instanceof Error ? e.stack ?? e.message : String(e)}` };
  }
}

function show(values: ReadonlyMap<string, bigint> | null): string {
  return values ? [...values].map(([k, v]) => `${k}=${v}`).join(' ') : '(none)';
}

/** The gcc results checked against the reference: reasons to distrust gcc's answer (empty: none). */
function testerProblems(gcc: GccProgramResult, ref: ReferenceResult, p: CProgram): string[] {
  if (gcc.compileError) return [`gcc could not compile the program: ${gcc.compileError}`];
  if (ref.kind === 'error') return [`the reference evaluator failed: ${ref.message}`];
  const first = gcc.ub[0];
  if (!first) {
    if (gcc.crashed) return [`the gcc run died (${gcc.crashed}) without a sanitizer report`];
    if (ref.kind !== 'exit') return [`the reference evaluator found undefined behaviour on line ${ref.line} (${ref.message}) that gcc did not report`];
    const problems: string[] = [];
    for (const g of p.globals) {
      const a = gcc.values?.get(g.name);
      const b = ref.globals.get(g.name);
      if (a !== b) problems.push(`gcc and the reference evaluator disagree on ${g.name}: ${a ?? 'missing'} vs ${b}`);
    }
    return problems;
  }
  if (ref.kind !== 'ub') return [`gcc reported '${first.message}' on line ${first.line}, the reference evaluator no undefined behaviour`];
  if (ref.line !== first.line) return [`gcc's first report is on line ${first.line} ('${first.message}'), the reference evaluator's on line ${ref.line} (${ref.message})`];
  return [];
}

function farkasVerdict(gcc: GccProgramResult, f: FarkasResult, p: CProgram): { verdict: Verdict; detail: string[] } {
  if (f.kind === 'rejected') return { verdict: 'differ', detail: [`farkas rejected the program: ${f.message}`] };
  if (f.kind === 'error') return { verdict: 'differ', detail: [`farkas failed: ${f.message}`] };
  const first = gcc.ub[0];
  if (!first) {
    if (f.outcome === 'overflow') return { verdict: 'ub-differ', detail: [`farkas reported a signed overflow on line ${f.line}; gcc found no undefined behaviour`] };
    if (f.outcome !== 'exit') return { verdict: 'differ', detail: [`farkas's run ended with '${f.outcome}'${f.line !== null ? ` on line ${f.line}` : ''}; gcc's run exited normally`] };
    const detail: string[] = [];
    for (const g of p.globals) {
      const a = gcc.values?.get(g.name);
      const b = f.globals.get(g.name);
      if (a !== b) detail.push(`${g.name}: gcc ${a ?? 'missing'}, farkas ${b ?? 'missing'}`);
    }
    return detail.length > 0 ? { verdict: 'differ', detail } : { verdict: 'agree', detail: [] };
  }
  if (first.kind !== 'overflow') return { verdict: 'skipped-ub-other', detail: [`gcc: line ${first.line}: ${first.message}`] };
  if (f.outcome !== 'overflow') {
    return { verdict: 'ub-differ', detail: [`gcc: line ${first.line}: ${first.message}; farkas's run ended with '${f.outcome}'${f.line !== null ? ` on line ${f.line}` : ''}`] };
  }
  if (f.line !== first.line) return { verdict: 'ub-differ', detail: [`gcc: line ${first.line}: ${first.message}; farkas reported the overflow on line ${f.line}`] };
  return { verdict: 'ub-agree', detail: [] };
}

/** The verdict on one program from gcc's and farkas's results (and the reference's, for the tester);
 * with `prepared` (the prepared program's run, null when declined) that one's verdict too. */
export function judge(p: CProgram, gcc: GccProgramResult, farkas: FarkasResult, reference: ReferenceResult, prepared?: FarkasResult | null): ProgramReport {
  const problems = testerProblems(gcc, reference, p);
  const v = farkasVerdict(gcc, farkas, p);
  if (problems.length > 0) {
    const report = { id: p.id, program: p, verdict: 'tester-error' as const, detail: [...problems, `(farkas: ${v.verdict}${v.detail.length ? `: ${v.detail.join('; ')}` : ''})`], gcc, farkas, reference };
    return prepared === undefined ? report : { ...report, prepared: { verdict: prepared === null ? null : 'tester-error', detail: [], farkas: prepared } };
  }
  const report = { id: p.id, program: p, verdict: v.verdict, detail: v.detail, gcc, farkas, reference };
  if (prepared === undefined) return report;
  if (prepared === null) return { ...report, prepared: { verdict: null, detail: [], farkas: null } };
  const pv = farkasVerdict(gcc, prepared, p);
  const withPrepared = { ...report, prepared: { verdict: pv.verdict, detail: pv.detail, farkas: prepared } };
  // A prepared program that fails where the parsed one does not makes the program a failing one.
  if (isFailure(pv.verdict) && !isFailure(v.verdict)) return { ...withPrepared, verdict: pv.verdict, detail: pv.detail.map((d) => `prepared program: ${d}`) };
  return withPrepared;
}

/** Checks every program: gcc in batches, farkas and the reference in this process. */
export async function checkPrograms(programs: readonly CProgram[], options: CheckOptions = {}): Promise<Report> {
  const batch = Math.max(1, options.batch ?? 100);
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  const preparedCounts = Object.fromEntries([...VERDICTS, 'declined'].map((v) => [v, 0])) as Record<Verdict | 'declined', number>;
  const reports: ProgramReport[] = [];
  // Compile batch i + 1 while farkas runs batch i (gcc is a separate process).
  const gccBatch = (from: number): Promise<GccProgramResult[]> => {
    const p = runGccBatch(programs.slice(from, from + batch), options);
    p.catch(() => {}); // awaited below; not an unhandled rejection while the previous batch is checked
    return p;
  };
  let pending = gccBatch(0);
  for (let start = 0; start < programs.length; start += batch) {
    const chunk = programs.slice(start, start + batch);
    const current = pending;
    if (start + batch < programs.length) pending = gccBatch(start + batch);
    const farkas = chunk.map((p) => runFarkas(p, options.maxSteps));
    const prepared = options.prepared ? chunk.map((p) => runPrepared(p, options.maxSteps)) : null;
    const gcc = await current;
    chunk.forEach((p, i) => {
      const reference = evaluate(p, printBody(p, { flavour: 'farkas' }).lineOf);
      const r = judge(p, gcc[i]!, farkas[i]!, reference, prepared ? prepared[i]! : undefined);
      counts[r.verdict]++;
      if (r.prepared) preparedCounts[r.prepared.verdict ?? 'declined']++;
      reports.push(r);
    });
    options.onProgress?.(reports.length, programs.length, counts);
  }
  return { programs: reports, counts, ...(options.prepared ? { preparedCounts } : {}) };
}

/** A failing program written up for `cint-<id>.c` and `cint-<id>.gcc.c`: the farkas text with
 * everything known about it in a trailing comment (after the program, so that its line numbers stay
 * those of the reports), and the gcc text. */
export function describeCase(r: ProgramReport): { farkas: string; gcc: string } {
  const p = r.program;
  const inputs = [...p.inputs].map(([k, v]) => `${k}=${v}`);
  const runText = (f: FarkasResult): string => (f.kind === 'run' ? `${f.outcome}${f.line !== null ? ` (line ${f.line})` : ''}; ${show(f.globals)}` : `${f.kind}: ${f.message}`);
  const farkas = runText(r.farkas);
  const ref = r.reference.kind === 'exit' ? `exit; ${show(r.reference.globals)}`
    : r.reference.kind === 'ub' ? `undefined behaviour on line ${r.reference.line}: ${r.reference.message}` : `error: ${r.reference.message}`;
  const comment = [
    `verdict: ${r.verdict}`,
    ...r.detail.map((d) => `  ${d}`),
    `data model: ${p.dataModel}`,
    `inputs: ${inputs.join(' ')}`,
    `gcc: ${r.gcc.ub.map((u) => `line ${u.line}: ${u.message}; `).join('')}${r.gcc.crashed ? `crashed (${r.gcc.crashed}); ` : ''}${show(r.gcc.values)}`,
    `farkas: ${farkas}`,
    ...(r.prepared ? [`farkas, prepared program (prepareAnalysis 'paths'): ${r.prepared.farkas ? runText(r.prepared.farkas) : 'declined (too many paths)'}`] : []),
    `reference evaluator: ${ref}`,
    `reproduce: npx farkas run cint-${p.id}.c --data-model ${p.dataModel} --function f ${inputs.map((i) => `--input ${i}`).join(' ')}`,
    `           gcc ${GCC_FLAGS.join(' ')} cint-${p.id}.gcc.c -o cint && ./cint`,
  ];
  const text = `${farkasText(p)}\n/*\n${comment.map((l) => ` * ${l.replace(/\*\//g, '* /')}`).join('\n')}\n */\n`;
  return { farkas: text, gcc: gccText(p) };
}
