// The claim guard for `verify` (issue 19). A "safe" verdict is certified on the prepared procedure
// (calls inlined, paths expanded, ghosts added); here the ORIGINAL program runs instead: no run may
// fail an assertion, and every visit of a location whose prepared copies carry invariants must satisfy
// one of them. Procedure summaries are checked by running the procedure itself on inputs that satisfy
// a pair's pre-condition. A run that breaks a claim throws ClaimContradicted: the proof was about a
// wrongly built program.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import type { Procedure, Program } from '../ir/cfg.js';
import { locationPos } from '../ir/cfg.js';
import type { RunResult } from '../interpreter/index.js';
import { inputCopyName, returnName } from '../ir/summary-names.js';
import type { SummaryReport } from '../result.js';
import { ClaimContradicted } from './claim.js';
import { firstContradiction, measured, nondetRead, runText, type GuardRunOptions } from './runs.js';

/** The prepared procedure the invariants are about, and for each of its locations the location of the
 * analysed procedure it copies (PreparedCutset). */
export interface PreparedLocations {
  readonly proc: Procedure;
  readonly original: readonly number[];
}

/** The variables a state of `fn` in the original program has: its parameters, locals and the globals. */
function scopeOf(program: Program, proc: Procedure): Set<string> {
  return new Set([...program.globals.map((g) => g.name), ...proc.params, ...proc.locals]);
}

/**
 * Per location of the original `fn`: the disjunction of the invariants of its prepared copies. Only
 * locations every copy of which carries an invariant over the original's variables are claimed about
 * (a copy without one may be the one a run passes through); copies of inlined callees' locations are
 * not (ids past the original's are appended by inlining and ghosting).
 */
export function invariantsAtOriginal(program: Program, fn: string, prepared: PreparedLocations, invariants: ReadonlyMap<number, Formula>): Map<number, Formula> {
  const source = program.procedures.get(fn)!;
  const scope = scopeOf(program, source);
  const copies = new Map<number, number[]>();
  prepared.original.forEach((orig, loc) => {
    if (orig >= source.locations.length) return;
    const list = copies.get(orig);
    if (list) list.push(loc);
    else copies.set(orig, [loc]);
  });
  const out = new Map<number, Formula>();
  for (const [orig, locs] of copies) {
    const formulas = locs.map((l) => invariants.get(l));
    if (formulas.some((f) => f === undefined)) continue;
    if (formulas.some((f) => [...F.variablesOf(f!)].some((v) => !scope.has(v)))) continue;
    out.set(orig, F.or(...(formulas as Formula[])));
  }
  return out;
}

/**
 * Throws ClaimContradicted when a run of the original `fn` fails an assertion (the claim "safe") or
 * reaches a location in a state outside its invariants (`invariants`, by prepared location).
 */
export function guardSafe(program: Program, fn: string, prepared: PreparedLocations, invariants: ReadonlyMap<number, Formula>, options: GuardRunOptions = {}): void {
  measured(() => {
    const proc = program.procedures.get(fn)!;
    const atOriginal = invariantsAtOriginal(program, fn, prepared, invariants);
    const found = firstContradiction(program, fn, { ...options, watch: new Set(atOriginal.keys()) }, (run) => {
      if (run.outcome.kind === 'assertion-failed') {
        return new ClaimContradicted('safety proof', runText(run.inputs, nondetRead(run)), `the assertion at line ${run.outcome.pos.line} fails`, run.outcome.pos.line);
      }
      return brokenInvariant(proc, atOriginal, run);
    });
    if (found) throw found;
  });
}

function brokenInvariant(proc: Procedure, invariants: ReadonlyMap<number, Formula>, run: RunResult): ClaimContradicted | null {
  for (const [loc, states] of run.watched ?? []) {
    const invariant = invariants.get(loc)!;
    const state = states.find((s) => !F.evaluate(invariant, (v) => s.get(v) ?? 0n));
    if (!state) continue;
    const line = locationPos(proc, loc).line;
    const values = [...F.variablesOf(invariant)].sort().map((v) => `${v} = ${state.get(v) ?? 0n}`).join(', ');
    return new ClaimContradicted('invariant', runText(run.inputs, nondetRead(run)), `line ${line}: ${values} violates ${F.toC(invariant)}`, line);
  }
  return null;
}

/**
 * Throws ClaimContradicted when a run of a summarised procedure, on inputs satisfying a pair's
 * pre-condition, fails an assertion or returns a value the pair's post-condition excludes. Pairs over anything but the
 * procedure's parameters and its return value (globals) are not checked.
 */
export function guardSummaries(program: Program, summaries: readonly SummaryReport[], options: GuardRunOptions = {}): void {
  measured(() => {
    for (const summary of summaries) {
      const proc = program.procedures.get(summary.procedure);
      if (!proc) continue;
      const ret = returnName(summary.procedure);
      const known = new Set([...proc.params, ...proc.params.map(inputCopyName), ret]);
      for (const pair of summary.pairs) {
        const vars = [...F.variablesOf(pair.preFormula), ...F.variablesOf(pair.postFormula)];
        if (vars.some((v) => !known.has(v))) continue;
        const found = firstContradiction(program, summary.procedure, { ...options, within: pair.preFormula }, (run) => {
          // The body is proved as `assume(pre); body; assert(post)`: its own assertions hold under pre too.
          if (run.outcome.kind === 'assertion-failed') {
            return new ClaimContradicted('procedure summary', runText(run.inputs, nondetRead(run)), `under ${pair.pre} the assertion at line ${run.outcome.pos.line} fails in ${summary.procedure}`, run.outcome.pos.line);
          }
          if (run.outcome.kind !== 'exit' || run.outcome.returnValue === null) return null;
          const result = run.outcome.returnValue;
          const value = (v: string): bigint => (v === ret ? result : run.inputs.get(v.endsWith('!in') ? v.slice(0, -3) : v) ?? 0n);
          if (F.evaluate(pair.postFormula, value)) return null;
          return new ClaimContradicted('procedure summary', runText(run.inputs, nondetRead(run)), `${summary.procedure} returns ${result}, outside ${pair.post} (under ${pair.pre})`, proc.pos.line);
        });
        if (found) throw found;
      }
    }
  });
}
