// Ghost quotients, for invariants about remainders. `i % 3 == 0` after a loop that adds 6 or 3 to i
// needs "i is a multiple of 3" at the loop head, which no linear invariant over the program's own
// variables states. With a ghost variable q kept equal to C's `i / 3`, the linear `i == 3*q` does.
//
// The ghosts are fresh locals, written only by ghost code and read by nothing of the program, so
// the program's runs and its safety are unchanged; a proof of the ghosted program proves the
// original. Every ghost update is deterministic: before `t := e`, the ghost of t becomes
// Σ a_i·q_i + k, where e = Σ a_i·x_i + c, q_i is the ghost of x_i and k is picked by mutually
// exclusive assume-guarded branches (one per possible carry, plus one for a ghost that is stale,
// e.g. a parameter's, so that no run is ever blocked). After `v := ?` the ghost is drawn like the
// front end's quotients: a havoc and the one assume that pins it, for which the samplers take the
// pinned value instead of a stream value (which would block the run).
import { WorkLimitExceeded } from '../limits.js';
import * as F from './formula.js';
import type { Formula } from './formula.js';
import * as L from './linear.js';
import type { Linear } from './linear.js';
import type { Edge, Location, Procedure, Program, Stmt } from './cfg.js';

export interface RemainderGhost {
  readonly variable: string;
  readonly modulus: bigint;
  /** The ghost's IR name; it always equals C's `variable / modulus` where the proof uses it. */
  readonly ghost: string;
}

export interface GhostedProgram {
  readonly program: Program;
  readonly ghosts: readonly RemainderGhost[];
}

/** More ghosts than this make the samples and candidates too wide to be worth it. */
const MAX_GHOSTS = 6;
/** Carry cases of one update beyond which the ghost is left stale there. */
const MAX_CASES = 12;

/**
 * The program with ghost quotients in `fn` for every variable whose remainder by a constant the
 * function takes (`x % m`, `x / m`), and for the variables those are assigned from; null when there
 * are none (or too many).
 */
export function withRemainderGhosts(program: Program, fn: string): GhostedProgram | null {
  const proc = program.procedures.get(fn);
  if (!proc) return null;
  const tracked = trackedModuli(proc);
  const ghosts: RemainderGhost[] = [];
  const taken = new Set([...program.globals.map((g) => g.name), ...proc.params, ...proc.locals]);
  for (const [variable, moduli] of tracked) {
    for (const modulus of moduli) {
      let ghost = `__q_${variable}_${modulus}`;
      while (taken.has(ghost)) ghost = `_${ghost}`;
      taken.add(ghost);
      ghosts.push({ variable, modulus, ghost });
    }
  }
  if (ghosts.length === 0 || ghosts.length > MAX_GHOSTS) return null;
  const procedures = new Map(program.procedures);
  procedures.set(fn, withGhostUpdates(proc, ghosts));
  return { program: { ...program, procedures }, ghosts };
}

/** Variable → moduli: those of the divisions' dividends, closed under assignment (t := e tracks
 * e's variables by t's moduli). */
function trackedModuli(proc: Procedure): Map<string, Set<bigint>> {
  const tracked = new Map<string, Set<bigint>>();
  const track = (v: string, m: bigint): boolean => {
    const set = tracked.get(v) ?? new Set<bigint>();
    tracked.set(v, set);
    if (set.has(m)) return false;
    set.add(m);
    return true;
  };
  for (const { dividend, modulus } of divisions(proc)) for (const v of L.variablesOf(dividend)) track(v, modulus);
  for (let changed = true; changed; ) {
    changed = false;
    for (const edge of proc.edges) {
      if (edge.stmt.kind !== 'assign') continue;
      for (const m of tracked.get(edge.stmt.target) ?? []) {
        for (const v of L.variablesOf(edge.stmt.expr)) if (track(v, m)) changed = true;
      }
    }
  }
  return tracked;
}

/**
 * The front end's divisions: `q := ?` followed by the one assume that pins q to C's `e / m`
 * (lower-expr.ts, divide). Read off the assume's atoms: those with q have q's coefficient ±m, and
 * the sign test of the first case is `e >= 0`. Only a hint: a ghost for a wrong guess is harmless.
 */
function divisions(proc: Procedure): { dividend: Linear; modulus: bigint }[] {
  const out: { dividend: Linear; modulus: bigint }[] = [];
  for (const havoc of proc.edges) {
    if (havoc.stmt.kind !== 'havoc' || !havoc.stmt.ghost) continue;
    const q = havoc.stmt.target;
    const next = proc.edges.filter((e) => e.from === havoc.to);
    if (next.length !== 1 || next[0]!.stmt.kind !== 'assume') continue;
    let cubes: Formula[][];
    try {
      cubes = F.dnf(next[0]!.stmt.cond, 2);
    } catch (error) {
      if (error instanceof WorkLimitExceeded) continue; // not a quotient's two cases
      throw error;
    }
    if (cubes.length !== 2) continue;
    const atoms = cubes[0]!.filter((a): a is Extract<Formula, { kind: 'atom' }> => a.kind === 'atom');
    const sign = atoms.find((a) => a.rel === '>=' && L.coefficientOf(a.expr, q) === 0n);
    const withQ = atoms.find((a) => L.coefficientOf(a.expr, q) !== 0n);
    if (!sign || !withQ) continue;
    const c = L.coefficientOf(withQ.expr, q);
    const modulus = c < 0n ? -c : c;
    if (modulus >= 2n) out.push({ dividend: sign.expr, modulus });
  }
  return out;
}

function withGhostUpdates(proc: Procedure, ghosts: readonly RemainderGhost[]): Procedure {
  const locations: Location[] = [...proc.locations];
  const edges: Edge[] = [...proc.edges];
  const ghostOf = (v: string, m: bigint): string | undefined => ghosts.find((g) => g.variable === v && g.modulus === m)?.ghost;
  const newLocation = (): number => {
    const id = locations.length;
    locations.push({ id, loopHeader: false, label: 'ghost' });
    return id;
  };
  const newEdge = (from: number, to: number, stmt: Stmt, pos: Edge['pos']): void => {
    edges.push({ id: edges.length, from, to, stmt, pos });
  };
  for (const edge of proc.edges) {
    const stmt = edge.stmt;
    if (stmt.kind === 'havoc') {
      // After `v := ?` the ghost is C's v / m, drawn the way the front end draws a quotient: a havoc
      // and the one assume that pins it (the samplers take the pinned value; no run is blocked).
      // A havoc pinned by the next assume (a quotient itself) keeps that assume right after it, for
      // the same reason: the ghost code goes after the assume.
      const next = proc.edges.filter((e) => e.from === edge.to);
      const pinning = next.length === 1 && next[0]!.stmt.kind === 'assume' && F.variablesOf(next[0]!.stmt.cond).has(stmt.target) ? next[0]! : null;
      const after = pinning ?? edge;
      let at = after.to;
      for (const g of ghosts.filter((x) => x.variable === stmt.target).reverse()) {
        const [drawn, pinned] = [newLocation(), newLocation()];
        newEdge(drawn, pinned, { kind: 'havoc', target: g.ghost, ghost: true }, edge.pos);
        newEdge(pinned, at, { kind: 'assume', cond: ghostDefinition(g) }, edge.pos);
        at = drawn;
      }
      if (at !== after.to) edges[after.id] = { ...edges[after.id]!, to: at };
      continue;
    }
    if (stmt.kind !== 'assign') continue;
    const from = proc.locations[edge.from]!;
    // Only a plain statement location: its single edge can be preceded by the ghost code.
    if (from.choice || proc.edges.some((e) => e.from === edge.from && e.id !== edge.id)) continue;
    const updates = ghosts.filter((g) => g.variable === stmt.target).map((g) => ghostUpdate(g, stmt.expr, ghostOf)).filter((u) => u !== null);
    if (updates.length === 0) continue;
    // edge.from → (each update's cases) → join → … → the assignment, which reads the same pre-state.
    let at = edge.from;
    for (const update of updates) {
      const join = newLocation();
      for (const { guard, value } of update.cases) {
        const branch = newLocation();
        newEdge(at, branch, { kind: 'assume', cond: guard }, edge.pos);
        newEdge(branch, join, { kind: 'assign', target: update.ghost, expr: value }, edge.pos);
      }
      at = join;
    }
    edges[edge.id] = { ...edge, from: at };
  }
  return { ...proc, locals: [...proc.locals, ...ghosts.map((g) => g.ghost)], locations, edges };
}

interface GhostUpdate {
  readonly ghost: string;
  /** Exclusive, exhaustive guards over the pre-state, each with the ghost's new value. */
  readonly cases: readonly { readonly guard: Formula; readonly value: Linear }[];
}

/**
 * The ghost of t (modulus m) before `t := e`. With e = Σ a_i·x_i + c and x_i == m·q_i + r_i (C's
 * remainder: 0 <= r_i < m for x_i >= 0, -m < r_i <= 0 below), s = e - m·Σ a_i·q_i = Σ a_i·r_i + c
 * lies within c ± Σ|a_i|·(m-1), and e / m = Σ a_i·q_i + k for the k with m·k <= s <= m·k + m - 1
 * (e >= 0) or m·k - m + 1 <= s <= m·k (e < 0). One case per k, and a last one for the state in none
 * of them (a stale ghost): there the ghost keeps Σ a_i·q_i.
 */
function ghostUpdate(target: RemainderGhost, e: Linear, ghostOf: (v: string, m: bigint) => string | undefined): GhostUpdate | null {
  const m = target.modulus;
  let sum = L.constant(0n);
  let spread = 0n;
  for (const v of L.variablesOf(e)) {
    const q = ghostOf(v, m);
    if (q === undefined) return null;
    const a = L.coefficientOf(e, v);
    sum = L.add(sum, L.variable(q, a));
    spread += (a < 0n ? -a : a) * (m - 1n);
  }
  const c = e.constant;
  if (L.variablesOf(e).length === 0) return { ghost: target.ghost, cases: [{ guard: F.TRUE, value: L.constant(c / m) }] };
  const [low, high] = [L.floorDiv(c - spread, m), L.floorDiv(c + spread, m) + 1n];
  if (high - low + 1n > BigInt(MAX_CASES)) return null;
  const cases: { guard: Formula; value: Linear }[] = [];
  for (let k = low; k <= high; k++) {
    // s in k's interval is exactly: m·(Σ a_i·q_i + k) is m times e / m.
    const value = L.addConstant(sum, k);
    cases.push({ guard: F.truncatedMultiple(e, L.scale(value, m), m), value });
  }
  cases.push({ guard: F.not(F.or(...cases.map((k) => k.guard))), value: sum });
  return { ghost: target.ghost, cases };
}

/** A ghost as the C division it stands for, `(i / 3)`, with its variable named `variable`. */
export function ghostText(g: RemainderGhost, variable: string = g.variable): string {
  return `(${variable} / ${g.modulus})`;
}

/** C text for a ghost (`(i / 3)`), the IR name for everything else: invariants stated in C. */
export function ghostNames(ghosts: readonly RemainderGhost[]): (v: string) => string {
  const text = new Map(ghosts.map((g) => [g.ghost, ghostText(g)]));
  return (v) => text.get(v) ?? v;
}

/** What a ghost means, as a formula: C's `q == v / m` (truncating), the invariant its updates keep. */
export function ghostDefinition(g: RemainderGhost): Formula {
  return F.truncatedMultiple(L.variable(g.variable), L.variable(g.ghost, g.modulus), g.modulus);
}
