// Cross-checking (issue 7): every registered engine on the same program, through the common Engine
// interface. Definite verdicts (safe / unsafe) must agree — each is backed by its own certificate, so
// a disagreement means a bug in an engine or in a checker. Loop-head invariants of the engines that
// proved the program are compared with the constraint engine's (the reference) by implication over
// the integers. `farkas verify --cross-check` prints the table; the UI's Engines pane shows its rows
// as they come.
import type { Formula } from '../ir/formula.js';
import * as F from '../ir/formula.js';
import type { Verdict, VerifyResult } from '../result.js';
import { checkInvariants } from '../certify/certificate.js';
import { CONSTRAINT_ENGINE, registeredEngines, type Engine, type EngineOptions, type EngineResult } from '../engines/index.js';
import { implies } from '../certify/lia.js';
import { loopInvariants } from '../witness/loop-invariants.js';
import type { Program } from '../ir/cfg.js';
import { AnalysisUnsupported, type Problem } from '../problem/prepare.js';
import { withDeadline, type Settings } from '../settings.js';
import { CROSS_CHECK_ENGINE_TIMEOUT_MS, INVARIANT_COMPARISON_TIMEOUT_MS } from '../limits.js';

export interface CrossCheckRow {
  /** The engine's name: `constraints` (the `verify` engine) or an interpolation engine's. */
  readonly engine: string;
  readonly verdict: Verdict;
  readonly reason?: string;
  readonly millis: number;
  /** certified: invariants proved by the checker; replayed: counterexample replayed; none: unknown. */
  readonly certificate: 'certified' | 'replayed' | 'none';
  readonly result: EngineResult;
}

/** How the constraint engine's loop-head invariant relates to another engine's. */
export type Strength = 'stronger' | 'weaker' | 'equivalent' | 'incomparable' | 'unknown';

export interface InvariantComparison {
  readonly line: number;
  readonly col: number;
  readonly engine: string;
  /** The constraint engine's invariant at this loop head (C expression). */
  readonly constraints: string;
  readonly other: string;
  readonly strength: Strength;
}

export interface CrossCheckResult {
  readonly function: string;
  readonly rows: readonly CrossCheckRow[];
  /** One message per pair of engines with opposite definite verdicts. */
  readonly disagreements: readonly string[];
  /** The verdict every definite answer agrees on, 'unknown' when none is definite, null on disagreement. */
  readonly consensus: Verdict | null;
  readonly comparisons: readonly InvariantComparison[];
}

export interface CrossCheckOptions {
  /** Given to every engine: the constraint engine's own options (pins, hooks). */
  readonly engineOptions?: EngineOptions;
  /** Time limit per engine, within the settings' deadline. Without it the constraint engine has none
   * but the deadline, as in `farkas verify` (its search ends by its SAT work budget), and every other
   * engine gets 60 s, so that no search that keeps refining holds up the table. */
  readonly engineTimeLimitMs?: number;
  /** Time limit per implication query of the comparison (default 10 s). */
  readonly comparisonTimeLimitMs?: number;
  /** Compare the loop-head invariants (default true); a caller that shows only verdicts skips the z3 queries. */
  readonly compareInvariants?: boolean;
  /** The engines, in the order of the rows (default: every registered engine, the constraint engine first). */
  readonly engines?: readonly Engine[];
  /** Answers already at hand, by engine name: those engines are not run again (the UI has the
   * constraint engine's from its own search). No started/finished call is made for them. */
  readonly results?: ReadonlyMap<string, EngineResult>;
  readonly onEngineStarted?: (engine: string) => void;
  readonly onEngineFinished?: (row: CrossCheckRow) => void;
  /** Given: an engine that throws is reported here and left out of the rows, and the next engine
   * runs. Absent: the error ends the cross-check (a crashed engine is a bug that must not be hidden). */
  readonly onEngineFailed?: (engine: string, error: unknown) => void;
}

export async function crossCheck(problem: Problem, settings: Settings, options: CrossCheckOptions = {}): Promise<CrossCheckResult> {
  const { program } = problem;
  const rows: CrossCheckRow[] = [];
  for (const engine of options.engines ?? registeredEngines()) {
    const known = options.results?.get(engine.name);
    if (known) {
      rows.push(row(engine.name, known));
      continue;
    }
    const limit = options.engineTimeLimitMs ?? (engine.name === CONSTRAINT_ENGINE ? undefined : CROSS_CHECK_ENGINE_TIMEOUT_MS);
    options.onEngineStarted?.(engine.name);
    let result: EngineResult;
    try {
      result = await engine.run(problem, limit === undefined ? settings : withDeadline(settings, settings.deadline.within(limit)), options.engineOptions);
    } catch (e) {
      if (!options.onEngineFailed) throw e;
      options.onEngineFailed(engine.name, e);
      continue;
    }
    const finished = row(engine.name, result);
    rows.push(finished);
    options.onEngineFinished?.(finished);
  }
  const disagreements: string[] = [];
  for (const [i, a] of rows.entries()) {
    for (const b of rows.slice(i + 1)) {
      if (a.verdict !== 'unknown' && b.verdict !== 'unknown' && a.verdict !== b.verdict) {
        disagreements.push(`${a.engine} says ${a.verdict} but ${b.engine} says ${b.verdict}`);
      }
    }
  }
  const definite = [...new Set(rows.map((r) => r.verdict).filter((v) => v !== 'unknown'))];
  const consensus = definite.length > 1 ? null : definite[0] ?? 'unknown';
  const reference = rows.find((r) => r.engine === CONSTRAINT_ENGINE);
  const comparisons = reference?.verdict === 'safe' && options.compareInvariants !== false
    ? await compareInvariants(program, reference.result, rows.filter((r) => r !== reference && r.verdict === 'safe'), options.comparisonTimeLimitMs ?? INVARIANT_COMPARISON_TIMEOUT_MS)
    : [];
  const fn = reference?.result.function ?? rows[0]?.result.function ?? problem.function;
  return { function: fn, rows, disagreements, consensus, comparisons };
}

function row(engine: string, result: EngineResult): CrossCheckRow {
  const certificate = result.verdict === 'safe' && result.certified ? 'certified'
    : result.verdict === 'unsafe' && result.counterexample?.replayed ? 'replayed' : 'none';
  return { engine, verdict: result.verdict, ...(result.reason !== undefined ? { reason: result.reason } : {}), millis: result.millis, certificate, result };
}

const posKey = (line: number, col: number): string => `${line}:${col}`;

/**
 * Per loop head where both engines state an invariant: the constraint engine's (its cut-point
 * invariants carried to the loop heads as in SV-COMP witnesses) against the other engine's.
 */
async function compareInvariants(program: Program, constraint: EngineResult, others: readonly CrossCheckRow[], timeLimitMs: number): Promise<InvariantComparison[]> {
  if (others.length === 0) return [];
  let heads: Awaited<ReturnType<typeof loopInvariants>>;
  try {
    heads = await loopInvariants(program, constraint.function, constraint.cutset, constraint.invariants);
  } catch (e) {
    // A program with recursive procedures has summaries, not loop-head invariants only: nothing to compare here.
    if (e instanceof AnalysisUnsupported) return [];
    throw e;
  }
  const mine = new Map(heads.map((h) => [posKey(h.pos.line, h.pos.col), h] as const));
  const out: InvariantComparison[] = [];
  for (const other of others) {
    for (const inv of other.result.invariants) {
      const head = mine.get(posKey(inv.line, inv.col));
      if (!head) continue;
      out.push({
        line: inv.line,
        col: inv.col,
        engine: other.engine,
        constraints: F.toC(head.formula),
        other: inv.expression,
        strength: await strength(head.formula, inv.formula, timeLimitMs),
      });
    }
  }
  return out;
}

export async function strength(a: Formula, b: Formula, timeLimitMs: number): Promise<Strength> {
  const ab = await implies(a, b, { timeLimitMs });
  const ba = await implies(b, a, { timeLimitMs });
  if (ab.status === 'unknown' || ba.status === 'unknown') return 'unknown';
  if (ab.status === 'valid') return ba.status === 'valid' ? 'equivalent' : 'stronger';
  return ba.status === 'valid' ? 'weaker' : 'incomparable';
}

/** The table, the loud disagreement banner, and the invariant comparison, as text. */
export function formatCrossCheck(file: string, r: CrossCheckResult): string {
  const lines: string[] = [`${file}: function ${r.function}: cross-check of ${r.rows.length} engines`];
  const width = Math.max(...r.rows.map((x) => x.engine.length), 'engine'.length);
  lines.push(`  ${'engine'.padEnd(width)}  verdict  time      certificate  reason`);
  for (const x of r.rows) {
    lines.push(`  ${x.engine.padEnd(width)}  ${x.verdict.padEnd(7)}  ${`${(x.millis / 1000).toFixed(2)} s`.padEnd(8)}  ${x.certificate.padEnd(11)}  ${x.reason ?? ''}`.trimEnd());
  }
  if (r.disagreements.length > 0) {
    lines.push('', '!!! DISAGREEMENT between definite verdicts: a bug in an engine or a checker !!!');
    for (const d of r.disagreements) lines.push(`!!! ${d}`);
  } else {
    lines.push(`agreement: ${r.consensus === 'unknown' ? 'no engine gave a definite verdict' : `every definite verdict is ${r.consensus}`}`);
  }
  if (r.comparisons.length > 0) {
    lines.push('invariants (the constraint engine\'s against each engine\'s, at the loop heads):');
    for (const c of r.comparisons) {
      lines.push(`  line ${c.line}: ${c.engine}: constraints ${c.strength === 'unknown' ? '(comparison unknown)' : `is ${c.strength}`}: ${c.constraints}  vs  ${c.other}`);
    }
  }
  return lines.join('\n') + '\n';
}

export function crossCheckJson(r: CrossCheckResult, resultJson: (x: CrossCheckRow) => object): object {
  return {
    function: r.function,
    agreement: r.disagreements.length === 0,
    consensus: r.consensus,
    disagreements: r.disagreements,
    engines: r.rows.map((x) => ({ engine: x.engine, verdict: x.verdict, ...(x.reason !== undefined ? { reason: x.reason } : {}), millis: x.millis, certificate: x.certificate, result: resultJson(x) })),
    invariants: r.comparisons,
  };
}

/** A safe result's invariants checked once more by the certificate checker, on the problem prepared
 * at the result's cut-set: an independent second look, beside the other engines' (the UI's Engines
 * pane). Cut-points without a reported invariant are held to true. */
export async function recheckCertificate(problem: Problem, result: VerifyResult): Promise<{ readonly valid: boolean; readonly reason?: string }> {
  const prepared = problem.analysis(result.cutset);
  const invariants = new Map<number, Formula>(result.invariants.map((i) => [i.location, i.formula]));
  for (const c of prepared.unknownCutpoints) if (!invariants.has(c)) invariants.set(c, F.TRUE);
  const check = await checkInvariants(prepared.preparedProgram, prepared.function, invariants, { precondition: prepared.precondition });
  return { valid: check.valid, ...(check.reason ? { reason: check.reason } : {}) };
}
