// Loops run in closed form (RunOptions.accelerate). When a loop header of the entry frame is reached
// three times in a row along the same edges, adding the same change d to the state each time, the
// iterations that follow are computed instead of run: along the line s + i·d every expression of the
// path is affine in i, so each of its tests (the edges taken, the edges not taken, the overflow
// premises, the assertions) holds on an interval of i that starts at 0, and the path's effect is
// s + i·d -> s + (i+1)·d exactly when it maps the line onto itself. The run jumps over the iterations
// inside every interval at once, counting their steps, and goes on from there edge by edge: its steps,
// states and outcome are those of the run without the jump. Only paths of assignments and tests (no
// nondet value, no call, no choice) are taken; anything else is run as usual.
import type { Formula } from '../ir/formula.js';
import type { Linear } from '../ir/linear.js';
import type { CompiledEdge, CompiledProc, Frame, Globals } from './compile.js';

/** A path longer than this (edges between two visits of its header) is not watched. */
const MAX_PATH_EDGES = 512;
/** Iterations along the same path with the same change before a jump is tried. */
const SAME_ITERATIONS = 2;
/** Fewer iterations are run, not jumped over: a jump costs the paths of the loops around it (their
 * iterations then differ in the edges recorded), and a short inner loop is part of its outer loop's
 * repeating path (a loop of 10 inside one of 2^28). */
const MIN_JUMP = 16n;

/** The value a + b·i at the i-th iteration from the state where the jump starts. */
interface Affine {
  readonly a: bigint;
  readonly b: bigint;
}

interface HeaderRecord {
  state: bigint[];
  /** Edges taken since the last visit; null once the path left the entry frame or grew too long. */
  log: CompiledEdge[] | null;
  change: bigint[] | null;
  path: CompiledEdge[] | null;
  same: number;
}

export interface Jump {
  /** Iterations jumped over. */
  readonly iterations: bigint;
  /** Steps they take (each edge but the overflow premises is a step, as in the run). */
  readonly steps: number;
}

/** What one run needs to accelerate the loops of its entry frame. */
export class LoopAccelerator {
  private readonly records = new Map<number, HeaderRecord>();
  /** Snapshot position of each variable: the frame's slots, then the globals (a local shadows a global). */
  private readonly position = new Map<string, number>();

  constructor(private readonly code: CompiledProc, globalNames: readonly string[]) {
    globalNames.forEach((g, i) => this.position.set(g, code.frameVars.length + i));
    code.frameVars.forEach((v, i) => this.position.set(v, i));
  }

  /** An edge the entry frame took. */
  edge(taken: CompiledEdge): void {
    for (const record of this.records.values()) {
      if (record.log === null) continue;
      if (record.log.length >= MAX_PATH_EDGES) record.log = null;
      else record.log.push(taken);
    }
  }

  /** The entry frame called a procedure: no path through the call is accelerated. */
  call(): void {
    for (const record of this.records.values()) record.log = null;
  }

  /**
   * The entry frame reached `loc`. At a loop header repeating its path and change, the iterations that
   * can be jumped over (at most `maxSteps` steps' worth) are applied to `vars` and `globals`, and
   * returned; otherwise null.
   */
  visit(loc: number, vars: Frame, globals: Globals, maxSteps: number): Jump | null {
    if (!this.code.proc.locations[loc]?.loopHeader) return null;
    const state = [...vars, ...globals];
    const record = this.records.get(loc);
    if (!record) {
      this.records.set(loc, { state, log: [], change: null, path: null, same: 0 });
      return null;
    }
    const log = record.log;
    if (log === null) {
      Object.assign(record, { state, log: [], change: null, path: null, same: 0 });
      return null;
    }
    const change = state.map((v, i) => v - record.state[i]!);
    const repeated = record.change !== null && record.path !== null && sameValues(change, record.change) && samePath(log, record.path);
    Object.assign(record, { state, log: [], change, path: log, same: repeated ? record.same + 1 : 1 });
    if (record.same < SAME_ITERATIONS) return null;
    const steps = log.filter((e) => e.stmt.kind !== 'assume' || !e.stmt.premise).length;
    if (steps === 0) return null;
    let iterations = this.iterationsAlong(log, state, change);
    // The steps stay a safe integer (and a run without a step limit is still counted exactly).
    const room = BigInt(Math.floor(Math.min(maxSteps, Number.MAX_SAFE_INTEGER) / steps));
    if (iterations > room) iterations = room;
    if (iterations < MIN_JUMP) return null;
    const frameSize = vars.length;
    for (let i = 0; i < state.length; i++) {
      const value = state[i]! + iterations * change[i]!;
      if (i < frameSize) vars[i] = value;
      else globals[i - frameSize] = value;
    }
    // The other headers' paths now miss the iterations jumped over.
    for (const [other, r] of this.records) if (other !== loc) r.log = null;
    Object.assign(record, { state: [...vars, ...globals], log: [], change: null, path: null, same: 0 });
    return { iterations, steps: Number(iterations) * steps };
  }

  /** How many iterations from `start` follow `path` and add `change` (each one's tests hold on it). */
  private iterationsAlong(path: readonly CompiledEdge[], start: readonly bigint[], change: readonly bigint[]): bigint {
    const values: Affine[] = start.map((a, i) => ({ a, b: change[i]! }));
    let limit: bigint | null = null; // null: no bound yet
    const bound = (n: bigint | null): void => {
      if (n !== null && (limit === null || n < limit)) limit = n;
    };
    for (const taken of path) {
      const from = taken.edge.from;
      if (this.code.proc.locations[from]?.choice) return 0n;
      // Every edge leaving the location is tested, as the run tests them: the one taken holds, the
      // others (but the premises, which must hold too) do not.
      for (const e of this.code.out[from] ?? []) {
        const s = e.edge.stmt;
        if (e === taken) continue;
        if (s.kind !== 'assume') return 0n;
        bound(holdsFor(s.premise === true ? s.cond : { kind: 'not', arg: s.cond }, values, this.position));
      }
      const s = taken.edge.stmt;
      switch (s.kind) {
        case 'assume':
        case 'assert':
          bound(holdsFor(s.cond, values, this.position));
          break;
        case 'assign': {
          const at = this.position.get(s.target);
          if (at === undefined) return 0n;
          values[at] = evaluate(s.expr, values, this.position);
          break;
        }
        case 'skip':
          break;
        default:
          return 0n; // havoc (a nondet value or a ghost) or call
      }
      if (limit === 0n) return 0n;
    }
    // The path must map the line onto itself: from s + i·d to s + (i+1)·d.
    for (let i = 0; i < values.length; i++) {
      if (values[i]!.a !== start[i]! + change[i]! || values[i]!.b !== change[i]!) return 0n;
    }
    // No test bounds the iterations (a loop that only a step limit ends): as many as the steps allow.
    return limit ?? BigInt(Number.MAX_SAFE_INTEGER);
  }
}

function sameValues(a: readonly bigint[], b: readonly bigint[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function samePath(a: readonly CompiledEdge[], b: readonly CompiledEdge[]): boolean {
  return a.length === b.length && a.every((e, i) => e === b[i]);
}

function evaluate(e: Linear, values: readonly Affine[], position: ReadonlyMap<string, number>): Affine {
  let a = e.constant;
  let b = 0n;
  for (const [v, k] of e.coeffs) {
    const x = values[position.get(v)!]!;
    a += k * x.a;
    b += k * x.b;
  }
  return { a, b };
}

/**
 * The number n of iterations i = 0, 1, …, n-1 on which `f` holds (null: all of them). Exact for
 * atoms, conjunctions and negated atoms; a disjunction counts the longest run of its disjuncts (it may
 * hold longer: fewer iterations are jumped over, never more).
 */
function holdsFor(f: Formula, values: readonly Affine[], position: ReadonlyMap<string, number>): bigint | null {
  const min = (xs: (bigint | null)[]): bigint | null => xs.reduce<bigint | null>((m, x) => (x === null ? m : m === null || x < m ? x : m), null);
  switch (f.kind) {
    case 'true': return null;
    case 'false': return 0n;
    case 'and': return min(f.args.map((g) => holdsFor(g, values, position)));
    case 'or': {
      const counts = f.args.map((g) => holdsFor(g, values, position));
      if (counts.some((c) => c === null)) return null;
      return counts.reduce<bigint>((m, c) => (c! > m ? c! : m), 0n);
    }
    case 'atom': {
      const { a, b } = evaluate(f.expr, values, position);
      if (f.rel === '==') return b === 0n ? (a === 0n ? null : 0n) : a === 0n ? 1n : 0n;
      // a + b·i >= 0
      if (a < 0n) return 0n;
      if (b >= 0n) return null;
      return a / -b + 1n;
    }
    case 'not': {
      const g = f.arg;
      switch (g.kind) {
        case 'true': return 0n;
        case 'false': return null;
        case 'not': return holdsFor(g.arg, values, position);
        case 'and': return holdsFor({ kind: 'or', args: g.args.map((h) => ({ kind: 'not', arg: h }) as Formula) }, values, position);
        case 'or': return holdsFor({ kind: 'and', args: g.args.map((h) => ({ kind: 'not', arg: h }) as Formula) }, values, position);
        case 'atom': {
          const { a, b } = evaluate(g.expr, values, position);
          if (g.rel === '>=') {
            // a + b·i < 0, i.e. -a - 1 - b·i >= 0
            const na = -a - 1n;
            const nb = -b;
            if (na < 0n) return 0n;
            if (nb >= 0n) return null;
            return na / -nb + 1n;
          }
          // a + b·i != 0: until the one i where it is 0, if there is one
          if (b === 0n) return a === 0n ? 0n : null;
          if (-a % b !== 0n) return null;
          const zero = -a / b;
          return zero >= 0n ? zero : null;
        }
      }
    }
  }
}
