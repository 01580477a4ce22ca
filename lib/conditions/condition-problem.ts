// The analysis problem of `farkas wp` / `farkas sp`: the prepared procedure (inlined, cut), its
// verification conditions, and the target cut-point whose relation is searched — the entry (over the
// function's parameters) for preconditions, the exit or a chosen cut-point for postconditions.
import { locationPos, type Program, type Procedure } from '../ir/cfg.js';
import { InputError } from '../diagnostics.js';
import { Problem, type PreparedAnalysis } from '../problem/prepare.js';
import { enumeratePaths } from '../vc/paths.js';
import { pathConditions, type VerificationCondition } from '../vc/vc.js';
import type { CutsetStrategy } from '../vc/cutset.js';

export interface ConditionProblem {
  readonly prepared: PreparedAnalysis;
  /** Cut-point of the searched relation (in prepared.cut.proc). */
  readonly target: number;
  readonly targetVariables: readonly string[];
  /** VCs with the target as an unknown relation where it is reached. */
  readonly vcs: readonly VerificationCondition[];
  readonly targetLine: number;
  /** No edge of the prepared procedure assigns a parameter (so a precondition holds throughout). */
  readonly parametersConstant: boolean;
}

/** Preconditions: the relation at the entry over the analysed function's parameters. */
export function preconditionProblem(problem: Problem, strategy: CutsetStrategy): ConditionProblem {
  const { program, function: fn } = problem;
  const params = program.procedures.get(fn)!.params;
  if (params.length === 0) {
    throw new InputError('error', `function '${fn}' has no parameters: a precondition is over the function's parameters (choose one with --function)`, program.procedures.get(fn)!.pos);
  }
  const prepared = problem.analysis(strategy);
  const assigned = new Set(prepared.cut.proc.edges.flatMap((e) => (e.stmt.kind === 'assign' || e.stmt.kind === 'havoc' ? [e.stmt.target] : e.stmt.kind === 'call' && e.stmt.target ? [e.stmt.target] : [])));
  const parametersConstant = params.every((p) => !assigned.has(p));
  return { prepared, target: prepared.cut.proc.entry, targetVariables: [...params], vcs: prepared.vcs, targetLine: prepared.cut.proc.pos.line, parametersConstant };
}

/**
 * Postconditions: assertions become assumptions (the strongest postcondition describes the runs that
 * pass them), and the relation at the exit (or at the cut-point on line `atLine`) is over the
 * function's parameters, locals and the globals.
 */
export function postconditionProblem(problem: Problem, strategy: CutsetStrategy, atLine?: number): ConditionProblem {
  const { program, function: fn } = problem;
  const original = program.procedures.get(fn)!;
  const procedures = new Map([...program.procedures].map(([name, proc]) => [name, assertionsAssumed(proc)] as const));
  const assumed: Program = { ...program, procedures };
  const prepared = Problem.of(assumed, fn).analysis(strategy);
  const proc = prepared.cut.proc;
  let target = proc.exit;
  let targetLine = original.pos.line;
  if (atLine !== undefined) {
    const candidates = prepared.unknownCutpoints.filter((c) => lineOf(proc, c) === atLine);
    if (candidates.length === 0) {
      const lines = [...new Set(prepared.unknownCutpoints.map((c) => lineOf(proc, c)))].sort((a, b) => a - b);
      throw new InputError('error', `no cut-point on line ${atLine} (cut-points are on line${lines.length === 1 ? '' : 's'} ${lines.join(', ') || 'none'}; without --at the exit is used)`, original.pos);
    }
    target = candidates[0]!;
    targetLine = atLine;
  }
  const scope = [...program.globals.map((g) => g.name), ...original.params, ...original.locals].filter((v) => !v.startsWith('__'));
  const variables = target === proc.exit ? scope : (prepared.variables.get(target) ?? []).filter((v) => !v.startsWith('__'));
  const unknown = new Set([...prepared.unknownCutpoints, target]);
  const vcs = enumeratePaths(proc, prepared.cut.cutpoints).flatMap((p) => pathConditions(p, (c) => unknown.has(c)));
  const others = prepared.unknownCutpoints.filter((c) => c !== target);
  return { prepared: { ...prepared, unknownCutpoints: others }, target, targetVariables: variables, vcs, targetLine, parametersConstant: false };
}

function assertionsAssumed(proc: Procedure): Procedure {
  return { ...proc, edges: proc.edges.map((e) => (e.stmt.kind === 'assert' ? { ...e, stmt: { kind: 'assume' as const, cond: e.stmt.cond } } : e)) };
}

export function lineOf(proc: Procedure, loc: number): number {
  return locationPos(proc, loc).line;
}
