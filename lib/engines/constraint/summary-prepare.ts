// Preparation for interprocedural verification with procedure summaries (paper 004, Section 3).
// Non-recursive calls are inlined; every (mutually) recursive procedure reachable from the analysed
// function keeps its calls, which the VCs replace by the callee's summary (vc.ts), and its body is
// prepared to be checked as `assume(A_i); S; assert(B_i)`: a fresh entry first copies each input x
// into `x!in`, so B_i (over inputs and the return value) can be required at the exit even where the
// body overwrites its parameters.
import * as F from '../../ir/formula.js';
import type { Formula } from '../../ir/formula.js';
import * as L from '../../ir/linear.js';
import type { Edge, Location, Procedure, Program } from '../../ir/cfg.js';
import { recursiveProcedures } from '../../ir/inline.js';
import { liveVariables } from '../../ir/liveness.js';
import { inputCopyName, returnName } from '../../ir/summary-names.js';
import { prepareCutset, type CutsetStrategy, type PreparedCutset } from '../../vc/cutset.js';
import { enumeratePaths } from '../../vc/paths.js';
import { pathConditions, type SummaryInterface, type VerificationCondition } from '../../vc/vc.js';
import { Problem } from '../../problem/prepare.js';
import { explicitOutputs } from './summary-outputs.js';

/** One procedure body as the VC generator sees it. */
export interface PreparedBody {
  readonly name: string;
  readonly cut: PreparedCutset;
  readonly vcs: readonly VerificationCondition[];
  /** Cut-points with unknown loop invariants (not entry, not exit). */
  readonly loopCutpoints: readonly number[];
  /** Template variables per loop cut-point. */
  readonly variables: ReadonlyMap<number, readonly string[]>;
}

export interface SummarisedProcedure {
  readonly name: string;
  readonly iface: SummaryInterface;
  /** Summary inputs: parameters, then the globals it reads. */
  readonly inputs: readonly string[];
  /** The body with input copies at a fresh entry, to be checked under each pair. */
  readonly body: PreparedBody;
  /** The variable holding the return value at the exit (null for void). */
  readonly returnVar: string | null;
}

export interface PreparedInterprocedural {
  readonly program: Program;
  readonly function: string;
  readonly entry: PreparedBody;
  readonly precondition: Formula;
  /** Summarised procedures, sorted by name. */
  readonly procedures: readonly SummarisedProcedure[];
  /** The program with every prepared body in place (what the certificate checker verifies). */
  readonly preparedProgram: Program;
}

export function prepareInterprocedural(problem: Problem, strategy: CutsetStrategy): PreparedInterprocedural {
  return prepareOnce(problem, strategy, false);
}

function prepareOnce(problem: Problem, strategy: CutsetStrategy, alreadyTransformed: boolean): PreparedInterprocedural {
  const { program, function: fn } = problem;
  const globals = new Set(program.globals.map((g) => g.name));
  const entryProc = problem.inlined.program.procedures.get(fn)!;
  const recursive = recursiveProcedures(program);

  // Bodies of the recursive procedures reachable from the analysed function, non-recursive callees inlined.
  const bodies = new Map<string, Procedure>();
  const pending = calleesOf(entryProc);
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (bodies.has(name)) continue;
    if (!recursive.has(name)) throw new Error(`internal: call of non-recursive '${name}' survived inlining`);
    const body = Problem.of(program, name).inlined.program.procedures.get(name)!;
    bodies.set(name, body);
    pending.push(...calleesOf(body));
  }
  // Globals written and assertions inside summarised procedures become explicit outputs (see
  // summary-outputs.ts); the transformed program has neither, and is prepared instead.
  const transformed = explicitOutputs({ program, entry: entryProc, bodies });
  if (transformed !== null) {
    // The transformed program has nothing left to transform; a second pass would mean it grows forever.
    if (alreadyTransformed) throw new Error('internal: summarised procedures still write globals or assert after their outputs were made explicit');
    return prepareOnce(Problem.of(transformed, fn), strategy, true);
  }
  for (const [name, body] of bodies) {
    const assertion = body.edges.find((e) => e.stmt.kind === 'assert');
    if (assertion) throw new Error(`internal: assertion left in summarised procedure '${name}'`);
  }
  const globalsRead = globalsReadBy(bodies, globals);
  const interfaces = new Map<string, SummaryInterface>();
  for (const [name, body] of bodies) {
    interfaces.set(name, { params: body.params, globals: [...globalsRead.get(name)!].sort(), returnName: body.returnVar === null ? null : returnName(name) });
  }
  const summaryOf = (callee: string) => interfaces.get(callee);

  const procedures: SummarisedProcedure[] = [];
  const preparedProcs = new Map(program.procedures);
  for (const name of [...bodies.keys()].sort()) {
    const iface = interfaces.get(name)!;
    const inputs = [...iface.params, ...iface.globals];
    const withCopies = copyInputsAtEntry(bodies.get(name)!, inputs);
    const body = prepareBody(program, withCopies, strategy, summaryOf, true, inputs.map(inputCopyName));
    preparedProcs.set(name, body.cut.proc);
    procedures.push({ name, iface, inputs, body, returnVar: withCopies.returnVar });
  }
  const entry = prepareBody(program, entryProc, strategy, summaryOf, false, []);
  preparedProcs.set(fn, entry.cut.proc);
  // As in prepare.ts: globals start at their initial values only when the analysed function is the entry.
  const precondition = fn === program.entry
    ? F.and(...program.globals.map((g) => F.eqZero(L.sub(L.variable(g.name), L.constant(g.init)))))
    : F.TRUE;
  return { program, function: fn, entry, precondition, procedures, preparedProgram: { ...program, procedures: preparedProcs, entry: fn } };
}

function calleesOf(proc: Procedure): string[] {
  return [...new Set(proc.edges.flatMap((e) => (e.stmt.kind === 'call' ? [e.stmt.callee] : [])))];
}

/** Globals each procedure reads, directly or through the procedures it calls (a fixpoint). */
function globalsReadBy(bodies: ReadonlyMap<string, Procedure>, globals: ReadonlySet<string>): Map<string, Set<string>> {
  const read = new Map<string, Set<string>>();
  for (const [name, body] of bodies) {
    const vars = new Set<string>();
    for (const e of body.edges) {
      const s = e.stmt;
      if (s.kind === 'assign') L.variablesOf(s.expr).forEach((v) => vars.add(v));
      else if ((s.kind === 'assume' && !s.premise) || s.kind === 'assert') F.variablesOf(s.cond, vars);
      else if (s.kind === 'call') s.args.forEach((a) => L.variablesOf(a).forEach((v) => vars.add(v)));
    }
    read.set(name, new Set([...vars].filter((v) => globals.has(v))));
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, body] of bodies) {
      const mine = read.get(name)!;
      for (const callee of calleesOf(body)) {
        for (const g of read.get(callee) ?? []) {
          if (!mine.has(g)) {
            mine.add(g);
            changed = true;
          }
        }
      }
    }
  }
  return read;
}

/** A fresh entry with `x!in := x` for every input, then the original body. */
export function copyInputsAtEntry(proc: Procedure, inputs: readonly string[]): Procedure {
  const locations: Location[] = [...proc.locations];
  const edges: Edge[] = [...proc.edges];
  const pos = proc.locations[proc.entry]?.pos ?? proc.pos;
  const newEntry = locations.length;
  locations.push({ id: newEntry, loopHeader: false, label: 'entry', pos });
  let from = newEntry;
  const steps = inputs.length > 0 ? inputs : [null];
  steps.forEach((x, i) => {
    const to = i === steps.length - 1 ? proc.entry : locations.length;
    if (to !== proc.entry) locations.push({ id: to, loopHeader: false, label: 'input copy', pos });
    const stmt = x === null ? { kind: 'skip' as const } : { kind: 'assign' as const, target: inputCopyName(x), expr: L.variable(x) };
    edges.push({ id: edges.length, from, to, stmt, pos });
    from = to;
  });
  return { ...proc, entry: newEntry, locals: [...proc.locals, ...inputs.map(inputCopyName)], locations, edges };
}

function prepareBody(
  program: Program,
  proc: Procedure,
  strategy: CutsetStrategy,
  summaryOf: (callee: string) => SummaryInterface | undefined,
  exitIsUnknown: boolean,
  extraVariables: readonly string[],
): PreparedBody {
  const cut = prepareCutset(proc, strategy);
  const loopCutpoints = cut.cutpoints.filter((c) => c !== cut.proc.entry && c !== cut.proc.exit);
  const hasRelation = new Set(exitIsUnknown ? [...loopCutpoints, cut.proc.exit] : loopCutpoints);
  const vcs = enumeratePaths(cut.proc, cut.cutpoints).flatMap((p) => pathConditions(p, (c) => hasRelation.has(c), summaryOf));
  const live = liveVariables(program, cut.proc);
  const variables = new Map<number, string[]>();
  for (const c of loopCutpoints) variables.set(c, [...new Set([...(live.get(c) ?? []), ...extraVariables])].sort());
  return { name: proc.name, cut, vcs, loopCutpoints, variables };
}
