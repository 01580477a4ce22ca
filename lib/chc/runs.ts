// Concrete derivations: the clauses run forward from the facts, each clause instance's head values
// chosen so that its constraint holds. The states they derive are reachable (each is a fact of the
// least model), so every invariant holds on them: they propose candidates (the residues' affine hull,
// bounds, phases) and drop wrong ones before z3 is asked. A derivation that reaches a query is a
// refutation, answered only after the evaluation check (derivation.ts).
//
// A clause instance is computed by propagation where the clause defines its head values (`(= D (+ 1
// A))`, the common case): the equalities of its constraint assign the variables they define, and
// evaluating the rest, as written, decides whether the clause applies. Where values stay open (a
// fact's `(not (<= 0 B))`, a nondeterministic step), z3 chooses them, under a query budget.
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { formulaToSmt, linearToSmt, lookup } from '../certify/lia.js';
import type { LiaSolver } from '../certify/lia-solver.js';
import type { State } from '../observe/samples.js';
import type { Deadline } from '../limits.js';
import { CHC_RUN_SOLVER_CHECKS, CHC_RUN_SOLVER_TEXT, CHC_RUN_CHECK_WORK, CHC_RUN_STEPS, CHC_RUN_COMBINATIONS, CHC_RUN_INITIAL_STATES, CHC_RUN_PHASE_STARTS, CHC_RUN_TARGET_ARGUMENTS, CHC_RUN_MORE_INITIAL_STATES, CHC_RUN_MORE_STEPS, CHC_RUN_JUMP_AFTER, CHC_RUN_MAX_JUMP, CHC_RUN_MAX_JUMPS, CHC_RUN_MODERATE_VALUE } from '../limits.js';
import { uniformSegment } from './accelerate.js';
import { evaluatePartially, type ChcValue } from './evaluate.js';
import { letScope, lookupLet } from './parse.js';
import { headOf } from './sexpr.js';
import type { ChcProgram, ClauseFormula } from './lower.js';
import type { Derivation, DerivationStep } from './derivation.js';
import type { Scoped } from './system.js';

export interface DerivedStates {
  /** Per predicate, the distinct states derived (over its IR variables), in the order derived. */
  readonly states: ReadonlyMap<string, readonly State[]>;
  /** Per predicate, the derived states whose successors were not computed (the budget ended first):
   * a bound they attain is where the runs stopped, not one the clauses keep. */
  readonly frontier: ReadonlyMap<string, ReadonlySet<State>>;
  /** A derivation of false, when one run reached a query. */
  readonly refutation: Derivation | null;
  /** Per predicate, pairs of states where a loop's step changed after repeating (a phase starts
   * there): the step's effect on an argument was the same twice in a row, then another; the state
   * before the new step and the one after. */
  readonly phaseStarts: ReadonlyMap<string, readonly State[]>;
  /** Per predicate, the states a step from a state of the same predicate derived, grouped by the
   * step's effect on the arguments (a loop's phase, across runs from different initial states). */
  readonly stepGroups: ReadonlyMap<string, readonly (readonly State[])[]>;
  /** Clause instances computed. */
  readonly steps: number;
}

interface Fact {
  readonly predicate: string;
  readonly state: State;
  /** The instance that derived it and the facts its body used. */
  readonly step: DerivationStep;
  readonly parents: readonly number[];
  /** The round of initial states it descends from (the latest, for several body facts). */
  readonly round: number;
  /** For a fact derived from one fact of its own predicate: the step's effect on each argument and
   * how many steps in a row had that effect on it. */
  readonly delta?: readonly bigint[];
  readonly run?: readonly number[];
  /** Derived by a jump over many instances of a loop's step (accelerate.ts): a derivation through it
   * would list them all, so none is answered. */
  readonly jumped?: boolean;
  /** The jump found no end of the phase within CHC_RUN_MAX_JUMP steps: the step repeats from here
   * on, and its successors are not computed (a bound it attains is where the runs stopped). */
  readonly endless?: boolean;
}

/** `live`: per predicate, the arguments some clause reads (relevance.ts); the initial states vary
 * those. */
export async function deriveStates(chc: ChcProgram, solver: LiaSolver, deadline: Deadline, live: ReadonlyMap<string, readonly string[]>): Promise<DerivedStates> {
  return new Derivations(chc, solver, deadline, live).run();
}

type Jump = { readonly values: ReadonlyMap<string, ChcValue>; readonly steps: bigint; readonly delta: readonly bigint[]; readonly endless: boolean };

/** The concrete derivations of one system: the facts derived so far and what they cost. */
class Derivations {
  private readonly facts: Fact[] = [];
  private readonly byPredicate: Map<string, number[]>;
  private readonly seen = new Set<string>();
  private readonly phaseStarts = new Map<string, State[]>();
  private readonly stepGroups = new Map<string, Map<string, State[]>>();
  private steps = 0;
  // z3's share of the runs: its checks, and the text they send, which z3 parses whole at every
  // check (on a big circuit that costs more than solving the step). The first round may use half of
  // the text, so that the second round's initial states get their runs.
  private solverChecks = 0;
  private solverText = 0;
  private solverTextLimit = CHC_RUN_SOLVER_TEXT / 2;
  private refutation: Derivation | null = null;
  // The round of initial states being drawn (see run).
  private round = 0;
  // One set of z3 symbols per clause, for all of its solved instances.
  private readonly clauseSymbols = new Map<ClauseFormula, Map<string, string>>();
  // Per clause, the head values z3 has given (blocked for its further instances) and the values each
  // head argument has had.
  private readonly given = new Map<ClauseFormula, { readonly blocked: string[]; readonly headValues: Set<bigint>[] }>();
  private jumps = 0;
  private readonly rules: readonly ClauseFormula[];
  private readonly expanded = new Set<number>();

  constructor(private readonly chc: ChcProgram, private readonly solver: LiaSolver, private readonly deadline: Deadline, private readonly live: ReadonlyMap<string, readonly string[]>) {
    this.byPredicate = new Map<string, number[]>([...chc.predicates.keys()].map((p) => [p, []]));
    this.rules = chc.formulas.filter((c) => c.body.length > 0);
  }

  // The first round: a few initial states and long runs (a phase can start late). The second: more
  // initial states, varied together, and short runs from them (both branches a flag selects).
  async run(): Promise<DerivedStates> {
    const { chc, byPredicate, facts } = this;
    const facts0 = chc.formulas.filter((c) => c.body.length === 0);
    this.round = 0;
    for (const c of facts0) await this.instances(c, [], 0, CHC_RUN_INITIAL_STATES);
    await this.expand(0, CHC_RUN_STEPS);
    this.round = 1;
    this.solverTextLimit = CHC_RUN_SOLVER_TEXT;
    if (!this.refutation && !this.deadline.passed) {
      for (const c of facts0) await this.instances(c, [], CHC_RUN_INITIAL_STATES, CHC_RUN_INITIAL_STATES + CHC_RUN_MORE_INITIAL_STATES);
      await this.expand(1, CHC_RUN_MORE_STEPS);
    }
    const states = new Map([...byPredicate].map(([p, ids]) => [p, ids.map((id) => facts[id]!.state)]));
    // The facts not (all) used: their successors are unknown.
    const frontier = new Map([...byPredicate].map(([p, ids]) => [p, new Set(ids.filter((id) => !this.expanded.has(id)).map((id) => facts[id]!.state))]));
    const stepGroups = new Map([...this.stepGroups].map(([p, groups]) => [p, [...groups.values()]]));
    return { states, frontier, refutation: this.refutation, phaseStarts: this.phaseStarts, stepGroups, steps: this.steps };
  }

  private solverLeft(): boolean {
    return this.solverChecks < CHC_RUN_SOLVER_CHECKS && this.solverText < this.solverTextLimit;
  }

  private grouped(predicate: string, delta: readonly bigint[], state: State): void {
    // A step whose effect grows (a product each step) repeats no effect: no group, and no key of
    // thousands of digits.
    if (delta.some((d) => d >= CHC_RUN_MODERATE_VALUE || d <= -CHC_RUN_MODERATE_VALUE)) return;
    const groups = this.stepGroups.get(predicate) ?? new Map<string, State[]>();
    this.stepGroups.set(predicate, groups);
    const key = delta.join(',');
    const group = groups.get(key) ?? [];
    groups.set(key, group);
    group.push(state);
  }

  private derivationTo(step: DerivationStep, parents: readonly number[]): Derivation | null {
    const { facts } = this;
    const used = new Set<number>();
    const stack = [...parents];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (used.has(id)) continue;
      used.add(id);
      stack.push(...facts[id]!.parents);
    }
    if ([...used].some((id) => facts[id]!.jumped)) return null;
    // A fact is created after the facts it uses: creation order is a valid order of the steps.
    return { steps: [...[...used].sort((a, b) => a - b).map((id) => facts[id]!.step), step] };
  }

  /** Records the instance's head fact (or the refutation, for a query). `jump`: the instance is the
   * last of `steps` repeats of the step `delta` from the parent (accelerate.ts). */
  private record(c: ClauseFormula, values: ReadonlyMap<string, ChcValue>, parents: readonly number[], jump?: Jump): void {
    const { chc, facts } = this;
    const step: DerivationStep = { clause: c.clause.index, values };
    if (!c.clause.head) {
      this.refutation ??= this.derivationTo(step, parents);
      return;
    }
    const at = chc.predicates.get(c.clause.head.predicate.name)!;
    const state = headState(chc, c, values);
    if (!state) return;
    const key = stateKey(chc, at.predicate.name, state);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.byPredicate.get(at.predicate.name)!.push(facts.length);
    const parent = parents.length === 1 && facts[parents[0]!]!.predicate === at.predicate.name ? facts[parents[0]!]! : null;
    const factRound = parents.length === 0 ? this.round : Math.max(...parents.map((id) => facts[id]!.round));
    if (!parent) {
      facts.push({ predicate: at.predicate.name, state, step, parents, round: factRound });
      return;
    }
    if (jump) {
      // As after two repeats: a phase start is still seen where the step changes next, and a jump
      // is tried again after one more repeat (the jump ends where the clause reads a term
      // differently, which need not change the step).
      const run = jump.delta.map(() => CHC_RUN_JUMP_AFTER - 1);
      this.grouped(at.predicate.name, jump.delta, state);
      facts.push({ predicate: at.predicate.name, state, step, parents, round: factRound, delta: jump.delta, run, jumped: true, endless: jump.endless });
      return;
    }
    const delta = at.vars.map((v) => state.get(v)! - parent.state.get(v)!);
    const run = delta.map((d, k) => (parent.delta?.[k] === d ? parent.run![k]! + 1 : 1));
    this.grouped(at.predicate.name, delta, state);
    // Some argument's step changed after it had repeated (an argument that changes its step at every
    // step, like a sum of a counter, starts no phase).
    if (parent.delta && delta.some((d, k) => d !== parent.delta![k] && parent.run![k]! >= 2)) {
      const starts = this.phaseStarts.get(at.predicate.name) ?? [];
      if (starts.length < 2 * CHC_RUN_PHASE_STARTS) this.phaseStarts.set(at.predicate.name, [...starts, parent.state, state]);
    }
    facts.push({ predicate: at.predicate.name, state, step, parents, round: factRound, delta, run });
  }

  /**
   * The clause's instances on the body facts `parents`: by propagation, else by z3, the `from`-th to
   * the `to - 1`-th of them. The first is z3's own choice. The others of the first round (below
   * CHC_RUN_INITIAL_STATES) ask one head argument some clause reads, in turn, for a value not seen yet,
   * so that every argument varies (a flag's both values, not four counters); those of the second
   * round ask for small values of those arguments together, a different combination each time (0,
   * 1, -1, 2 in order of their sum), so that two arguments vary apart (a loop's bound and a flag).
   */
  private async instances(c: ClauseFormula, parents: readonly number[], from: number, to: number): Promise<void> {
    const { chc, facts, solver } = this;
    this.steps++;
    const propagated = propagate(c, parents.map((id) => facts[id]!.state), chc);
    if (propagated === 'inapplicable') return;
    if (propagated !== 'open') {
      if (from === 0) {
        const jump = parents.length === 1 ? this.jumpAlong(c, facts[parents[0]!]!, propagated) : null;
        if (jump) this.record(c, jump.values, parents, jump);
        else this.record(c, propagated, parents);
      }
      return;
    }
    let symbols = this.clauseSymbols.get(c);
    if (!symbols) this.clauseSymbols.set(c, (symbols = new Map(c.variables.map((v) => [v, solver.intSymbol()]))));
    const bodyStates = parents.map((id) => facts[id]!.state);
    // Facts only: a rule's instances on given body facts are asked for once.
    const none = () => ({ blocked: [] as string[], headValues: (c.head?.args ?? []).map(() => new Set<bigint>()) });
    const drawn = parents.length === 0 ? this.given.get(c) ?? none() : none();
    if (parents.length === 0) this.given.set(c, drawn);
    const { blocked, headValues } = drawn;
    const headVars = c.head ? chc.predicates.get(c.head.predicate)!.vars : [];
    const read = new Set(c.head ? this.live.get(c.head.predicate) ?? [] : []);
    const varied = headVars.flatMap((v, i) => (read.has(v) ? [i] : []));
    const positions = varied.length > 0 ? varied : headVars.map((_, i) => i);
    const targets = smallCombinations(Math.min(positions.length, CHC_RUN_TARGET_ARGUMENTS), Math.max(0, to - CHC_RUN_INITIAL_STATES));
    const termAt = (position: number): string => linearToSmt(c.head!.args[position]!, lookup(symbols));
    const sent = (chars: number): void => {
      this.solverText += chars;
    };
    for (let k = from; k < to && this.solverLeft() && !this.deadline.passed; k++) {
      this.solverChecks++;
      const asks: string[][] = [[]];
      if (k > 0 && positions.length > 0) {
        const position = positions[(k - 1) % positions.length]!;
        const unseen = [...headValues[position]!].map((v) => `(not (= ${termAt(position)} ${v}))`);
        const target = k >= CHC_RUN_INITIAL_STATES ? targets[k - CHC_RUN_INITIAL_STATES] ?? [] : [];
        asks.unshift(...(target.length > 0 ? [target.map((v, j) => `(= ${termAt(positions[j]!)} ${v})`)] : []), unseen);
      }
      let values: Awaited<ReturnType<typeof solved>> = null;
      for (const [n, ask] of asks.entries()) {
        if (n > 0 && !this.solverLeft()) break;
        if (n > 0) this.solverChecks++;
        values = await solved(c, bodyStates, chc, solver, [...blocked, ...ask], symbols, sent);
        if (values) break;
      }
      if (!values) return;
      this.record(c, values.values, parents);
      blocked.push(values.block);
      values.head.forEach((v, i) => headValues[i]!.add(v));
    }
  }

  /**
   * The furthest instance of the loop step that derived `fact`, repeated from it (accelerate.ts):
   * tried once per phase, when the step has repeated CHC_RUN_JUMP_AFTER times for every argument,
   * and at most CHC_RUN_MAX_JUMPS times in all. Null when the next instance already reads the
   * clause differently.
   */
  private jumpAlong(c: ClauseFormula, fact: Fact, first: ReadonlyMap<string, ChcValue>): Jump | null {
    const { chc } = this;
    if (!c.head || fact.predicate !== c.head.predicate || fact.step.clause !== c.clause.index || !fact.delta) return null;
    if (Math.min(...fact.run!) !== CHC_RUN_JUMP_AFTER || this.jumps >= CHC_RUN_MAX_JUMPS) return null;
    const at = chc.predicates.get(fact.predicate)!;
    const delta = fact.delta;
    const after = headState(chc, c, first);
    if (!after || at.vars.some((v, i) => after.get(v)! - fact.state.get(v)! !== delta[i])) return null;
    /** The instance k steps on, when the segment to it is uniform. */
    const instanceAt = (k: bigint): ReadonlyMap<string, ChcValue> | null => {
      this.steps++;
      const body = new Map(at.vars.map((v, i) => [v, fact.state.get(v)! + k * delta[i]!]));
      const values = propagate(c, [body], chc);
      if (values === 'open' || values === 'inapplicable') return null;
      const head = headState(chc, c, values);
      if (!head || at.vars.some((v, i) => head.get(v) !== body.get(v)! + delta[i]!)) return null;
      return uniformSegment(c.clause, first, values, k) ? values : null;
    };
    // Doubling while the segment is uniform, then halving the gap to the first that is not.
    let good = 0n;
    let goodValues: ReadonlyMap<string, ChcValue> | null = null;
    let bad = 0n;
    for (let k = 2n; k <= CHC_RUN_MAX_JUMP; k *= 2n) {
      const values = instanceAt(k);
      if (!values) {
        bad = k;
        break;
      }
      [good, goodValues] = [k, values];
    }
    while (bad > good + 1n) {
      const mid = (good + bad) / 2n;
      const values = instanceAt(mid);
      if (values) [good, goodValues] = [mid, values];
      else bad = mid;
    }
    if (!goodValues) return null;
    this.jumps++;
    return { values: goodValues, steps: good + 1n, delta, endless: bad === 0n };
  }

  /** Breadth first over the facts of round `ofRound` in creation order, up to `budget` more instances; a
   * fact is used in every clause whose body names its predicate, with the other body positions
   * taken from the facts known so far (up to a bound). */
  private async expand(ofRound: number, budget: number): Promise<void> {
    const { facts } = this;
    const limit = this.steps + budget;
    for (let next = 0; next < facts.length && this.steps < limit && !this.refutation && !this.deadline.passed; next++) {
      const fact = facts[next]!;
      if (fact.round !== ofRound || this.expanded.has(next) || fact.endless) continue;
      let complete = true;
      for (const c of this.rules) {
        for (const [position, app] of c.body.entries()) {
          if (app.predicate !== fact.predicate) continue;
          for (const parents of combinations(c, position, next, this.byPredicate)) {
            if (this.steps >= limit || this.refutation) {
              complete = false;
              break;
            }
            await this.instances(c, parents, 0, 1);
          }
        }
        if (this.refutation) break;
      }
      if (complete && !this.refutation) this.expanded.add(next);
    }
  }
}

/**
 * The states the linear clauses derive from `start` by propagation alone (no z3), breadth first, at
 * most `maxSteps` clause instances. Houdini runs its counterexamples forward with it: a
 * counterexample's post-state is a successor of a state that satisfies the inductive subset still to
 * be found, so every state derived from it satisfies that subset too, and each candidate one of them
 * breaks can go at once.
 */
export function runForward(chc: ChcProgram, predicate: string, start: State, maxSteps: number): { readonly predicate: string; readonly state: State }[] {
  const out = [{ predicate, state: start }];
  const seen = new Set([stateKey(chc, predicate, start)]);
  let steps = 0;
  for (let next = 0; next < out.length && steps < maxSteps; next++) {
    const { predicate: p, state } = out[next]!;
    for (const c of chc.formulas) {
      if (c.body.length !== 1 || c.body[0]!.predicate !== p || !c.head || steps >= maxSteps) continue;
      steps++;
      const values = propagate(c, [state], chc);
      if (values === 'open' || values === 'inapplicable') continue;
      const head = headState(chc, c, values);
      if (!head) continue;
      const key = stateKey(chc, c.head.predicate, head);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ predicate: c.head.predicate, state: head });
    }
  }
  return out;
}

/** The values of the small combinations, in order: 0, 1, -1, 2, 3. */
const SMALL_VALUES = [0n, 1n, -1n, 2n, 3n];

/**
 * The first `count` combinations of small values for `n` arguments, other than all zeros, in order of
 * the sum of their values' ranks in SMALL_VALUES (then the first argument's rank, highest first):
 * for two, (1, 0), (0, 1), (-1, 0), (1, 1), (0, -1), (2, 0), …
 */
export function smallCombinations(n: number, count: number): bigint[][] {
  const out: bigint[][] = [];
  const top = SMALL_VALUES.length - 1;
  for (let sum = 1; n > 0 && out.length < count && sum <= n * top; sum++) {
    const walk = (prefix: number[], left: number): void => {
      if (out.length >= count) return;
      if (prefix.length === n - 1) {
        if (left <= top) out.push([...prefix, left].map((r) => SMALL_VALUES[r]!));
        return;
      }
      for (let r = Math.min(left, top); r >= 0; r--) walk([...prefix, r], left - r);
    };
    walk([], sum);
  }
  return out;
}

function stateKey(chc: ChcProgram, predicate: string, state: State): string {
  return `${predicate}(${chc.predicates.get(predicate)!.vars.map((v) => state.get(v)).join(',')})`;
}

/** The head's state of an instance (over the head predicate's IR variables), null for a query or a
 * head argument that does not evaluate. */
function headState(chc: ChcProgram, c: ClauseFormula, values: ReadonlyMap<string, ChcValue>): State | null {
  if (!c.clause.head) return null;
  const at = chc.predicates.get(c.clause.head.predicate.name)!;
  const state = new Map<string, bigint>();
  for (const [k, a] of c.clause.head.args.entries()) {
    const v = evaluatePartially(a, values);
    if (v === undefined) return null;
    state.set(at.vars[k]!, typeof v === 'boolean' ? (v ? 1n : 0n) : v);
  }
  return state;
}

/** Body facts for `c` with fact `id` at `position` and, at every other position, facts of that
 * predicate created no later than `id` (so each combination is tried once, when its last fact
 * appears), at most CHC_RUN_COMBINATIONS of them. */
function combinations(c: ClauseFormula, position: number, id: number, byPredicate: ReadonlyMap<string, readonly number[]>): number[][] {
  let out: number[][] = [[]];
  for (const [k, app] of c.body.entries()) {
    const options = k === position ? [id] : (byPredicate.get(app.predicate) ?? []).filter((f) => (k < position ? f <= id : f < id));
    const next: number[][] = [];
    for (const prefix of out) {
      for (const o of options) {
        if (next.length >= CHC_RUN_COMBINATIONS) break;
        next.push([...prefix, o]);
      }
    }
    out = next;
    if (out.length === 0) break;
  }
  return out;
}

/**
 * The clause's variables, when its body facts and the equalities of its constraint determine them
 * all and the constraint then holds; 'inapplicable' when it then fails; 'open' when some value is
 * not determined (or cannot be read: a body argument that is not a plain variable).
 */
function propagate(c: ClauseFormula, bodyStates: readonly State[], chc: ChcProgram): ReadonlyMap<string, ChcValue> | 'inapplicable' | 'open' {
  const clause = c.clause;
  const sorts = new Map(clause.vars.map((v) => [v.name, v.sort]));
  const values = new Map<string, ChcValue>();
  const checks: { term: Scoped; value: ChcValue }[] = [];
  clause.body.forEach((app, k) => {
    const at = chc.predicates.get(app.predicate.name)!;
    app.args.forEach((arg, i) => {
      const n = bodyStates[k]!.get(at.vars[i]!) ?? 0n;
      const value: ChcValue = app.predicate.sorts[i] === 'Bool' ? n !== 0n : n;
      const name = plainVariable(arg, sorts);
      if (name !== null && !values.has(name)) values.set(name, value);
      else checks.push({ term: arg, value });
    });
  });
  const conjuncts = flatConjuncts(clause.constraint);
  for (let changed = true; changed;) {
    changed = false;
    for (const t of conjuncts) {
      if (headOf(t.expr) !== '=' || t.expr.kind !== 'list' || t.expr.items.length !== 3) continue;
      const [lhs, rhs] = [{ expr: t.expr.items[1]!, scope: t.scope }, { expr: t.expr.items[2]!, scope: t.scope }];
      for (const [target, definition] of [[lhs, rhs], [rhs, lhs]] as const) {
        const name = plainVariable(target, sorts);
        if (name === null || values.has(name)) continue;
        const value = evaluatePartially(definition, values);
        if (value === undefined) continue;
        values.set(name, value);
        changed = true;
        break;
      }
    }
  }
  // A conjunct that evaluates to false settles it even while other values are open.
  let open = false;
  for (const { term, value } of checks) {
    const v = evaluatePartially(term, values);
    if (v === undefined) open = true;
    else if (v !== value) return 'inapplicable';
  }
  for (const t of conjuncts) {
    const v = evaluatePartially(t, values);
    if (v === undefined) open = true;
    else if (v !== true) return 'inapplicable';
  }
  if (open) return 'open';
  if (clause.head) for (const a of clause.head.args) if (evaluatePartially(a, values) === undefined) return 'open';
  // Variables no term reads (CHC_COMP_UNUSED) still get a value: a derivation step states them all.
  for (const v of clause.vars) if (!values.has(v.name)) values.set(v.name, v.sort === 'Bool' ? false : 0n);
  return values;
}

/** z3's values for the clause's variables on the body facts, other than the `blocked` head values. */
async function solved(c: ClauseFormula, bodyStates: readonly State[], chc: ChcProgram, solver: LiaSolver, blocked: readonly string[], symbols: ReadonlyMap<string, string>, sent: (chars: number) => void): Promise<{ values: Map<string, ChcValue>; head: bigint[]; block: string } | null> {
  const symbol = lookup(symbols);
  const parts = [formulaToSmt(c.constraint, symbol)];
  c.body.forEach((app, k) => {
    const at = chc.predicates.get(app.predicate)!;
    app.args.forEach((a, i) => parts.push(formulaToSmt(F.eqZero(L.addConstant(a, -(bodyStates[k]!.get(at.vars[i]!) ?? 0n))), symbol)));
  });
  sent([...parts, ...blocked].reduce((n, part) => n + part.length, 0));
  const outcome = await solver.check({ work: CHC_RUN_CHECK_WORK }, ...parts, ...blocked);
  if (outcome.status !== 'sat') return null;
  const model = solver.model();
  const values = new Map<string, ChcValue>();
  for (const v of c.clause.vars) {
    const ir = c.vars.get(v.name);
    const n = ir === undefined ? 0n : model.int(symbols.get(ir)!);
    values.set(v.name, v.sort === 'Bool' ? n !== 0n : n);
  }
  // The instance must hold as written (the lowering is not trusted with the states either).
  for (const t of c.clause.constraint) if (evaluatePartially(t, values) !== true) return null;
  if (c.clause.head) for (const a of c.clause.head.args) if (evaluatePartially(a, values) === undefined) return null;
  const headValues = c.head?.args.map((a) => L.evaluate(a, (w) => model.int(symbol(w)))) ?? [];
  const head = (c.head?.args ?? []).map((a, i) => `(= ${linearToSmt(a, symbol)} ${headValues[i]})`);
  return { values, head: headValues, block: head.length === 0 ? 'false' : `(not (and ${head.join(' ')}))` };
}

/** The clause variable `t` is, directly or through lets that rename it (as a reduced clause's
 * definitions are read: eliminate.ts). */
function plainVariable(t: Scoped, sorts: ReadonlyMap<string, string>): string | null {
  for (let s = t; ;) {
    if (s.expr.kind !== 'atom') return null;
    const bound = lookupLet(s.scope, s.expr.text);
    if (!bound) return sorts.has(s.expr.text) ? s.expr.text : null;
    s = bound;
  }
}

/** The conjuncts of a constraint, through nested `and`s and `let`s. */
function flatConjuncts(constraint: readonly Scoped[]): Scoped[] {
  const out: Scoped[] = [];
  const stack = [...constraint].reverse();
  while (stack.length > 0) {
    let { expr: e, scope } = stack.pop()!;
    for (;;) {
      if (headOf(e) === 'let' && e.kind === 'list') {
        scope = letScope(e, scope);
        e = e.items[2]!;
        continue;
      }
      // A let-bound name stands for its binding (`(and a!1 (= D (+ 1 B)))`).
      const bound = e.kind === 'atom' ? lookupLet(scope, e.text) : undefined;
      if (!bound) break;
      ({ expr: e, scope } = bound);
    }
    if (headOf(e) === 'and' && e.kind === 'list') {
      for (let k = e.items.length - 1; k >= 1; k--) stack.push({ expr: e.items[k]!, scope });
    } else out.push({ expr: e, scope });
  }
  return out;
}
