// Makes summarised procedures free of global writes and assertions, so that a summary relates
// inputs to one return value only (paper 004, Section 3: "globals read or written by a procedure are
// passed in and returned explicitly").
//
// - A global written by a summarised procedure is "localised": every summarised procedure that reads
//   or writes it (directly or through its callees) takes its value as an extra parameter and works on
//   a local copy.
// - An assertion `assert(c)` inside a summarised procedure becomes `if (!c) { err := 1; return; }` on
//   a ghost local err, and a call of a procedure that may fail is followed by `if (err') { err := 1;
//   return; }`: the failure travels up to the analysed function, where `assert(err' == 0)` follows the
//   call. The transformed run mirrors the original one up to the failing assertion and then fails too.
// - Each output o of P (its return value, each global it writes, err) gets its own procedure `P!o`
//   (the return value keeps the name P), whose body is P's with o as the return value; a call
//   `v := P(u)` computes every output from the same arguments, then assigns them. For a procedure that
//   is not deterministic this loses the correlation between outputs: an over-approximation, so a
//   proof stays sound (counterexamples come from runs of the original program).
// The certificate checker proves the transformed program, which is why the transformation is plain.
import type { Edge, Location, Procedure, Program, SourcePos, Stmt } from '../../ir/cfg.js';
import * as F from '../../ir/formula.js';
import * as L from '../../ir/linear.js';
import type { Linear } from '../../ir/linear.js';

/** The ghost output that says an assertion failed. */
export const ERROR_OUTPUT = 'err';

export interface OutputsInput {
  readonly program: Program;
  /** The analysed function, non-recursive calls inlined. */
  readonly entry: Procedure;
  /** The summarised procedures, non-recursive calls inlined. */
  readonly bodies: ReadonlyMap<string, Procedure>;
}

/** The transformed program (entry and summarised procedures replaced), or null when nothing is to do. */
export function explicitOutputs(input: OutputsInput): Program | null {
  const { program, entry, bodies } = input;
  const globals = new Set(program.globals.map((g) => g.name));
  const directWrites = new Map<string, Set<string>>();
  const directTouches = new Map<string, Set<string>>();
  const directFails = new Map<string, boolean>();
  for (const [name, body] of bodies) {
    const writes = new Set<string>();
    const touches = new Set<string>();
    let fails = false;
    for (const e of body.edges) {
      const s = e.stmt;
      const target = s.kind === 'assign' || s.kind === 'havoc' || s.kind === 'call' ? s.target : null;
      if (target !== null && globals.has(target)) writes.add(target);
      stmtVariables(s).forEach((v) => globals.has(v) && touches.add(v));
      if (s.kind === 'assert') fails = true;
    }
    directWrites.set(name, writes);
    directTouches.set(name, touches);
    directFails.set(name, fails);
  }
  const localised = new Set([...directWrites.values()].flatMap((w) => [...w]));
  const writes = closure(bodies, directWrites);
  const touches = closure(bodies, new Map([...directTouches].map(([n, t]) => [n, new Set([...t].filter((g) => localised.has(g)))])));
  const fails = closure(bodies, new Map([...directFails].map(([n, f]) => [n, new Set(f ? [ERROR_OUTPUT] : [])])));
  if (localised.size === 0 && ![...fails.values()].some((f) => f.size > 0)) return null;

  const sorted = (s: ReadonlySet<string>) => [...s].sort();
  const outputsOf = (name: string): (string | null)[] => [
    ...(bodies.get(name)!.returnVar !== null ? [null] : []),
    ...sorted(writes.get(name)!),
    ...sorted(fails.get(name)!),
  ];
  const selfName = selfCopyName(program, entry.name);
  const procName = (name: string, output: string | null) =>
    output !== null ? `${name}!${output}` : name === entry.name ? selfName : name;
  const procedures = new Map(program.procedures);
  for (const name of bodies.keys()) procedures.delete(name);
  for (const [name, body] of bodies) {
    const local = (v: string) => (localised.has(v) ? `${v}!loc` : v);
    const extra = sorted(touches.get(name)!).map(local);
    const err = fails.get(name)!.size > 0 ? `${ERROR_OUTPUT}!loc` : null;
    for (const output of outputsOf(name)) {
      const returnVar = output === null ? body.returnVar : output === ERROR_OUTPUT ? err : local(output);
      const rewritten = rewrite(body, { rename: local, err, callCopy: (callee) => callCopy(callee), procName, outputsOf, touches, localised, atEntry: err });
      procedures.set(procName(name, output), { ...rewritten, name: procName(name, output), params: [...body.params, ...extra], returnVar });
    }
  }
  const entryRewritten = rewrite(entry, { rename: (v) => v, err: null, callCopy, procName, outputsOf, touches, localised, atEntry: null });
  procedures.set(entry.name, entryRewritten);
  return { ...program, procedures };

  function callCopy(callee: string): boolean {
    return bodies.has(callee);
  }
}

/**
 * The analysed function keeps its name; when it is recursive itself, the summarised copy that its
 * calls reach needs another one, of the form `P!x` that no global x's output procedure can also have.
 */
export function selfCopyName(program: Program, analysed: string): string {
  const globals = new Set(program.globals.map((g) => g.name));
  let suffix = 'rec';
  while (globals.has(suffix)) suffix += '_';
  return `${analysed}!${suffix}`;
}

interface RewriteContext {
  readonly rename: (v: string) => string;
  /** The ghost local of a summarised body that may fail; null in the analysed function. */
  readonly err: string | null;
  readonly callCopy: (callee: string) => boolean;
  readonly procName: (name: string, output: string | null) => string;
  readonly outputsOf: (name: string) => (string | null)[];
  readonly touches: ReadonlyMap<string, ReadonlySet<string>>;
  readonly localised: ReadonlySet<string>;
  /** Set to 0 at the entry (the ghost starts clear). */
  readonly atEntry: string | null;
}

function rewrite(proc: Procedure, ctx: RewriteContext): Procedure {
  const locations: Location[] = [...proc.locations];
  const edges: Edge[] = [];
  const locals = new Set(proc.locals.map(ctx.rename));
  const renameMap = (vars: Iterable<string>) => new Map([...vars].filter((v) => ctx.rename(v) !== v).map((v) => [v, L.variable(ctx.rename(v))] as const));
  const lin = (e: Linear) => L.substitute(e, renameMap(L.variablesOf(e)));
  const fml = (f: F.Formula) => F.substitute(f, renameMap(F.variablesOf(f)));
  const newLoc = (pos: SourcePos, label: string): number => {
    const id = locations.length;
    locations.push({ id, loopHeader: false, label, pos });
    return id;
  };
  const add = (from: number, to: number, stmt: Stmt, pos: SourcePos) => edges.push({ id: edges.length, from, to, stmt, pos });
  // A failure: err := 1, then straight to the exit.
  const fail = (from: number, cond: F.Formula, pos: SourcePos) => {
    const raised = newLoc(pos, 'assertion failed');
    add(from, raised, { kind: 'assume', cond }, pos);
    add(raised, proc.exit, { kind: 'assign', target: ctx.err!, expr: L.constant(1n) }, pos);
  };
  let temp = 0;
  let entry = proc.entry;
  // Edges keep their ids where they are not expanded (choice locations decide by edge order).
  const expansions: { edge: Edge; at: number }[] = [];
  for (const e of proc.edges) {
    const s = e.stmt;
    if (s.kind === 'assert' && ctx.err !== null) {
      // assert(c) → assume(c) on the original edge; assume(!c) → err := 1 → exit.
      add(e.from, e.to, { kind: 'assume', cond: fml(s.cond) }, e.pos);
      expansions.push({ edge: e, at: edges.length - 1 });
    } else if (s.kind === 'call' && ctx.callCopy(s.callee)) {
      add(e.from, e.from, { kind: 'skip' }, e.pos); // placeholder, replaced below
      expansions.push({ edge: e, at: edges.length - 1 });
    } else {
      add(e.from, e.to, renameStmt(s, ctx.rename, lin, fml), e.pos);
    }
  }
  for (const { edge: e, at } of expansions) {
    const s = e.stmt;
    if (s.kind === 'assert') {
      fail(e.from, fml(F.not(s.cond)), e.pos);
      continue;
    }
    if (s.kind !== 'call') continue;
    // Every output of the callee from the same arguments (and current values of the globals it
    // touches), into temporaries; then the assignments; then the failure check.
    const args = [...s.args.map(lin), ...[...ctx.touches.get(s.callee)!].sort().map((g) => L.variable(ctx.rename(g)))];
    let from = e.from;
    const results: { output: string | null; temp: string }[] = [];
    const steps: Stmt[] = [];
    for (const output of ctx.outputsOf(s.callee)) {
      const t = `${s.callee}!t${temp++}`;
      locals.add(t);
      results.push({ output, temp: t });
      steps.push({ kind: 'call', target: t, callee: ctx.procName(s.callee, output), args });
    }
    for (const { output, temp: t } of results) {
      if (output === null) {
        if (s.target !== null) steps.push({ kind: 'assign', target: ctx.rename(s.target), expr: L.variable(t) });
      } else if (output !== ERROR_OUTPUT) {
        steps.push({ kind: 'assign', target: ctx.rename(output), expr: L.variable(t) });
      }
    }
    const errTemp = results.find((r) => r.output === ERROR_OUTPUT)?.temp;
    if (errTemp !== undefined && ctx.err === null) steps.push({ kind: 'assert', cond: F.eqZero(L.variable(errTemp)) });
    const last = steps.length - 1;
    steps.forEach((stmt, i) => {
      const to = i === last && !(errTemp !== undefined && ctx.err !== null) ? e.to : newLoc(e.pos, 'call');
      if (i === 0) edges[at] = { id: at, from, to, stmt, pos: e.pos };
      else add(from, to, stmt, e.pos);
      from = to;
    });
    if (errTemp !== undefined && ctx.err !== null) {
      add(from, e.to, { kind: 'assume', cond: F.eqZero(L.variable(errTemp)) }, e.pos);
      fail(from, F.not(F.eqZero(L.variable(errTemp))), e.pos);
    }
  }
  if (ctx.atEntry !== null) {
    const start = newLoc(proc.locations[proc.entry]?.pos ?? proc.pos, 'entry');
    add(start, proc.entry, { kind: 'assign', target: ctx.atEntry, expr: L.constant(0n) }, proc.pos);
    locals.add(ctx.atEntry);
    entry = start;
  }
  const params = new Set(proc.params);
  return { ...proc, entry, locations, edges, locals: [...locals].filter((v) => !params.has(v)) };
}

function renameStmt(s: Stmt, rename: (v: string) => string, lin: (e: Linear) => Linear, fml: (f: F.Formula) => F.Formula): Stmt {
  switch (s.kind) {
    case 'assign': return { kind: 'assign', target: rename(s.target), expr: lin(s.expr) };
    case 'havoc': return { ...s, target: rename(s.target) };
    case 'assume':
    case 'assert': return { ...s, cond: fml(s.cond) };
    case 'call': return { ...s, target: s.target === null ? null : rename(s.target), args: s.args.map(lin) };
    case 'skip': return s;
  }
}

function stmtVariables(s: Stmt): string[] {
  switch (s.kind) {
    case 'assign': return [s.target, ...L.variablesOf(s.expr)];
    case 'havoc': return [s.target];
    case 'assume':
    case 'assert': return [...F.variablesOf(s.cond)];
    case 'call': return [...(s.target !== null ? [s.target] : []), ...s.args.flatMap((a) => L.variablesOf(a))];
    case 'skip': return [];
  }
}

/** Per procedure, the union of its own set and those of every procedure it calls (a fixpoint). */
function closure(bodies: ReadonlyMap<string, Procedure>, own: ReadonlyMap<string, ReadonlySet<string>>): Map<string, Set<string>> {
  const out = new Map([...own].map(([n, s]) => [n, new Set(s)] as const));
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, body] of bodies) {
      const mine = out.get(name)!;
      for (const e of body.edges) {
        if (e.stmt.kind !== 'call') continue;
        for (const x of out.get(e.stmt.callee) ?? []) {
          if (!mine.has(x)) {
            mine.add(x);
            changed = true;
          }
        }
      }
    }
  }
  return out;
}
