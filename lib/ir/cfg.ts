// The program IR every engine shares: one control-flow graph per procedure, edges labelled with
// simple statements over mathematical integers, each edge keeping its source position. C's integer
// semantics is made explicit by the front end: every value a C variable holds lies in its type's
// range, wrap-around (unsigned arithmetic, conversions) is spelled out with guarded cases or ghost
// quotients, and signed overflow is an assume marked `premise` (or an assert, for the no-overflow
// property).
import type { Formula } from './formula.js';
import type { Linear } from './linear.js';

export interface SourcePos {
  readonly file: string;
  readonly line: number; // 1-based
  readonly col: number; // 1-based
}

export type Stmt =
  /** target := expr */
  | { readonly kind: 'assign'; readonly target: string; readonly expr: Linear }
  /** target := ? (non-deterministic value: a nondet call, an uninitialised local, a parameter of main).
   * `range`, when present, is the C type's value range of a `__VERIFIER_nondet_<type>()` result: real runs
   * stay inside it (the interpreter enforces it); a proof may ignore it, which only over-approximates. */
  | {
      readonly kind: 'havoc';
      readonly target: string;
      readonly range?: { readonly lo: bigint; readonly hi: bigint };
      /** Not a choice of the program but a value the next assume pins down (a quotient of `/` or a
       * wrap-around count): concrete runs compute it, and it is never an input of a condition. */
      readonly ghost?: true;
    }
  /** continue only if cond holds (branches, assume(), abort() as assume(false)).
   * `premise`: the absence of signed overflow, which C leaves undefined. Analyses may drop it (an
   * over-approximation) and do, so that no proof depends on it; concrete runs check it and stop with
   * an 'overflow' outcome where it fails. */
  | { readonly kind: 'assume'; readonly cond: Formula; readonly premise?: true }
  /** the run fails here if cond does not hold (assert(), __VERIFIER_assert(), reach_error() as assert(false)).
   * `overflow`: the check of the no-overflow property (cond: the operation's result is in range). */
  | { readonly kind: 'assert'; readonly cond: Formula; readonly overflow?: true }
  /** target := callee(args) by value; target is null for a call whose result is dropped.
   * Globals are shared: the callee reads and writes them directly. */
  | { readonly kind: 'call'; readonly target: string | null; readonly callee: string; readonly args: readonly Linear[] }
  /** no effect (joins, break/continue jumps) */
  | { readonly kind: 'skip' };

export interface Edge {
  readonly id: number;
  readonly from: number;
  readonly to: number;
  readonly stmt: Stmt;
  readonly pos: SourcePos;
}

export interface Location {
  readonly id: number;
  /** Position of the statement or loop this location stands before, when it has one. */
  readonly pos?: SourcePos;
  /** Target of a back edge: the head of a loop (while/do/for). */
  readonly loopHeader: boolean;
  /** Human-readable role: 'entry', 'exit', 'loop', 'after-loop', ... (for printing only). */
  readonly label?: string;
  /** The outgoing edges are a non-deterministic choice (`if (*)`, `while (*)`): exactly two edges,
   * both unguarded. A run decides by consuming one value of the nondet stream: non-zero takes the
   * edge with the smaller id (the then-branch / loop body), zero the other. Everywhere else the
   * outgoing edges of a location are guarded by assumes the front end makes mutually exclusive. */
  readonly choice?: boolean;
  /** For a loop header: the C variables in scope there, C name → IR variable (locals renamed for
   * shadowing differ). Lets results be stated in source terms (e.g. SV-COMP witness invariants). */
  readonly scope?: Readonly<Record<string, string>>;
}

export interface ValueRange {
  readonly lo: bigint;
  readonly hi: bigint;
}

export interface Procedure {
  readonly name: string;
  readonly params: readonly string[];
  /** The C type's range of each parameter, by name (absent: unbounded). Concrete runs take their
   * inputs inside it; analyses see it where the front end also assumed it at the entry. */
  readonly paramRanges?: ReadonlyMap<string, ValueRange>;
  /** Locals, including front-end temporaries; disjoint from params and globals. */
  readonly locals: readonly string[];
  /** The C type (`unsigned int`, `char`, …) of each parameter and declared local, by IR name
   * (temporaries and ghosts have none): for stating results in C, where unsigned arithmetic wraps. */
  readonly varTypes?: ReadonlyMap<string, string>;
  /** Holds the return value at the exit; null for a void procedure. */
  readonly returnVar: string | null;
  readonly entry: number;
  readonly exit: number;
  readonly locations: readonly Location[]; // locations[i].id === i
  readonly edges: readonly Edge[]; // edges[i].id === i
  readonly pos: SourcePos;
}

export interface GlobalVar {
  readonly name: string;
  /** C's static initialisation: the initialiser's constant value, or 0. */
  readonly init: bigint;
  /** Its C type (`unsigned int`, …). */
  readonly type?: string;
}

/** Sizes of C's integer types: `long` is 32-bit under ILP32, 64-bit under LP64. */
export type DataModel = 'ILP32' | 'LP64';

/** The property a program is lowered for: reachability of an error (its assertions), signed overflow,
 * or termination (every run ends: a failing assertion, abort() or a blocked assume ends it too). */
export type Property = 'unreach-call' | 'no-overflow' | 'termination';

export interface Program {
  readonly file: string;
  /** The data model the front end used for the sizes of the C types. */
  readonly dataModel?: DataModel;
  readonly property?: Property;
  readonly globals: readonly GlobalVar[];
  readonly procedures: ReadonlyMap<string, Procedure>;
  /** The procedure analysed by default: `main` when defined, else the last defined function. */
  readonly entry: string;
  /** Lowered from Horn clauses (lib/chc): every clause copies its predicate's arguments along, so the
   * invariant templates leave out the faint ones (read only to be copied into what nothing reads). */
  readonly fromHornClauses?: true;
  /** A transformation broken on purpose, for the tests of the claim guard only (lib/ir/faults.ts):
   * the preparation of this program applies it. Nothing but a test sets one. */
  readonly faultForTests?: 'assertions-dropped' | 'constant-shifted' | 'outer-increment-dropped';
}

export function outgoing(proc: Procedure, loc: number): Edge[] {
  return proc.edges.filter((e) => e.from === loc);
}

export function incoming(proc: Procedure, loc: number): Edge[] {
  return proc.edges.filter((e) => e.to === loc);
}

/** All variables a procedure may touch: globals, parameters, locals. */
export function scopeOf(program: Program, proc: Procedure): string[] {
  return [...program.globals.map((g) => g.name), ...proc.params, ...proc.locals];
}

/** Where a location stands in the source: its own position, else that of the statement it starts —
 * past the premise checks of signed overflow, which stand at an operator, not at a statement. */
export function locationPos(proc: Procedure, loc: number): SourcePos {
  const own = proc.locations[loc]?.pos;
  if (own) return own;
  let edge = proc.edges.find((e) => e.from === loc);
  for (let hops = 0; edge && edge.stmt.kind === 'assume' && edge.stmt.premise && hops < proc.edges.length; hops++) {
    const next = proc.edges.filter((e) => e.from === edge!.to);
    if (next.length !== 1) break;
    edge = next[0];
  }
  return edge?.pos ?? proc.pos;
}
