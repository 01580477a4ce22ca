// Refuting Horn clauses: every derivation of false up to a depth, as one z3 query. A derivation z3
// finds is read off its model; the caller checks it by evaluating the clauses as written
// (derivation.ts) before it answers unsat.
import { formulaToSmt, linearToSmt, lookup } from '../certify/lia.js';
import { withLiaSolver, type LiaModel, type LiaSolver } from '../certify/lia-solver.js';
import { CHC_UNFOLD_CHECK_WORK, CHC_UNFOLD_DEPTHS, CHC_UNFOLD_MAX_NODES, CHC_UNFOLD_ROUND_CHECKS, WorkBudget, type Deadline } from '../limits.js';
import type { ClauseFormula } from './lower.js';
import type { Derivation, DerivationStep } from './derivation.js';
import type { ChcValue } from './evaluate.js';

interface TreeNode {
  readonly clause: ClauseFormula;
  /** The SMT-LIB symbol of each of the clause's IR variables in this instance. */
  readonly symbols: ReadonlyMap<string, string>;
  /** True in a model when this instance is the one used. */
  readonly selector: string;
  /** Per body application, the nodes that may derive it. */
  children: number[][];
}

class TooManyNodes extends Error {}

/**
 * Every derivation of false of depth at most d: for each predicate application, a choice among the
 * clauses with that head, each with fresh copies of its variables, down to depth d. A nonlinear
 * system's tree grows with the clauses' branching (a linear one's chain does not: levels()), so the
 * depth stops where it would need more than CHC_UNFOLD_MAX_NODES instances or the work budget is
 * spent.
 */
export class Unfolder {
  private depth = 0;
  private readonly budget: WorkBudget;
  private stopped: string | null = null;
  /** The first depth whose trees exceed CHC_UNFOLD_MAX_NODES, once one did. */
  private tooLarge: number | null = null;
  private readonly byHead = new Map<string | null, ClauseFormula[]>();
  /** Every body names at most one predicate (see levels()). */
  private readonly linear: boolean;
  /** Linear, and each predicate (and false) has at most one rule and one fact: the derivations of
   * each length are one chain of clauses, searched one length at a time (levels()). */
  private readonly chains: boolean;

  constructor(clauses: readonly ClauseFormula[], work: number) {
    this.budget = new WorkBudget(work);
    this.linear = clauses.every((c) => c.body.length <= 1);
    for (const c of clauses) {
      const key = c.head?.predicate ?? null;
      const list = this.byHead.get(key) ?? [];
      list.push(c);
      this.byHead.set(key, list);
    }
    this.chains = this.linear && [...this.byHead.values()].every((list) => list.filter((c) => c.body.length > 0).length <= 1 && list.filter((c) => c.body.length === 0).length <= 1);
  }

  get exhausted(): boolean {
    return this.stopped !== null;
  }

  describe(): string {
    return this.stopped !== null ? `no derivation of false of depth ${this.depth} or less (deeper: ${this.stopped})` : `no derivation of false of depth ${this.depth} or less`;
  }

  /** Deeper and deeper until a derivation is found, the unfolding stops or the round has used `share`
   * of z3's work. */
  async round(deadline: Deadline, share: number): Promise<Derivation | null> {
    const until = this.budget.left - share;
    for (let checks = 0; this.stopped === null && !deadline.passed && this.budget.left > until && checks < CHC_UNFOLD_ROUND_CHECKS; checks++) {
      const found = await this.deeper(deadline);
      if (found) return found;
    }
    return null;
  }

  /** The derivation of the next depth, or null (none there, or the unfolding stopped). */
  private async deeper(deadline: Deadline): Promise<Derivation | null> {
    if (this.stopped !== null || deadline.passed) return null;
    // Chains one length at a time (levels()); other systems' depths by the schedule, and past the
    // depth where the trees grew too large, one level at a time.
    const depth = this.chains || this.tooLarge !== null ? this.depth + 1 : CHC_UNFOLD_DEPTHS.find((d) => d > this.depth);
    if (depth === undefined) {
      this.stopped = `depth ${this.depth} is the last one searched`;
      return null;
    }
    if (this.tooLarge !== null && depth >= this.tooLarge) {
      this.stopped = `a derivation tree of depth ${this.tooLarge} has more than ${CHC_UNFOLD_MAX_NODES} clause instances`;
      return null;
    }
    return withLiaSolver(async (solver) => {
      const nodes: TreeNode[] = [];
      let roots: number[];
      try {
        roots = this.linear ? this.levels(solver, nodes, depth) : this.choices(solver, nodes, null, [], depth);
      } catch (e) {
        if (!(e instanceof TooManyNodes)) throw e;
        this.tooLarge = depth;
        return null;
      }
      if (!this.byHead.has(null)) {
        this.stopped = 'the system has no query';
        return null;
      }
      // No chain of this length reaches a query (the facts are further away).
      if (roots.length === 0) {
        this.depth = depth;
        return null;
      }
      solver.assert(`(or ${roots.map((r) => nodes[r]!.selector).join(' ')})`);
      const work = Math.min(CHC_UNFOLD_CHECK_WORK, this.budget.left);
      const outcome = await solver.check({ work, preprocess: true, ...deadline.timeLimit });
      this.budget.charge(outcome.work);
      if (outcome.status === 'unsat') {
        this.depth = depth;
        if (this.budget.exhausted) this.stopped = `the work budget (${this.budget.limit} z3 units) is spent`;
        return null;
      }
      if (outcome.status === 'unknown') {
        this.stopped = `z3 gave no answer at depth ${depth} (${outcome.reason ?? 'unknown'})`;
        return null;
      }
      const derivation = derivationFrom(solver.model(), nodes, roots);
      if (!derivation) this.stopped = `internal: z3's model at depth ${depth} chooses no clause instance`;
      return derivation;
    }, { fresh: true });
  }

  /**
   * Linear clauses: a derivation is a chain, one instance per level (the query at level 0, the
   * instance deriving its body at level 1, …), so the instances of one level that derive the same
   * predicate share its argument symbols and their alternatives are not copied for each choice above:
   * depth × clauses instances instead of a tree of clauses^depth. Returns the query instances.
   *
   * When the derivations of each length are one chain (`chains`: a transition system), only those
   * of exactly `depth` instances: the fact at the last level and rules above it (the shorter ones
   * were searched before). Each level then has one instance, its constraint holds unconditionally,
   * and z3's preprocessing solves its equalities away: on the Lustre systems of the vmt benchmarks,
   * all lengths up to 7 together took 0.9 s of native z3 where one query of every chain up to 8 took
   * 2.4 s. Other systems keep one query for every chain up to `depth`: with a choice at each level,
   * one length at a time makes many more queries (rust-horn's bmc-3: depth 40 in 2.2 s before, 10 s
   * not enough after).
   */
  private levels(solver: LiaSolver, nodes: TreeNode[], depth: number): number[] {
    // Per level, the instances deriving each predicate (filled from the deepest level up).
    let below = new Map<string, { readonly args: readonly string[]; readonly ids: number[] }>();
    // The heads each level may need: the queries at level 0, then the bodies of the level above.
    const needed: (string | null)[][] = [[null]];
    for (let level = 1; level < depth; level++) {
      const bodies = needed[level - 1]!.flatMap((h) => (this.byHead.get(h) ?? []).flatMap((c) => c.body.map((app) => app.predicate)));
      needed.push([...new Set(bodies)].sort());
    }
    const exact = this.chains;
    for (let level = depth - 1; level >= 0; level--) {
      const here = new Map<string, { readonly args: readonly string[]; readonly ids: number[] }>();
      const roots: number[] = [];
      const last = level === depth - 1;
      // An exact chain has exactly one instance at each level: the only one of a level is used.
      const asserted: { readonly selector: string; readonly constraint: string }[] = [];
      for (const head of needed[level]!) {
        const clauses = (this.byHead.get(head) ?? []).filter((c) => !exact || (c.body.length === 0) === last);
        if (clauses.length === 0) continue;
        const arity = clauses[0]!.head?.args.length ?? 0;
        const args = Array.from({ length: arity }, () => solver.intSymbol());
        const ids: number[] = [];
        for (const clause of clauses) {
          if (nodes.length >= CHC_UNFOLD_MAX_NODES) throw new TooManyNodes();
          const symbols = new Map(clause.variables.map((v) => [v, solver.intSymbol()]));
          const node: TreeNode = { clause, symbols, selector: solver.boolSymbol(), children: [] };
          const symbol = lookup(symbols);
          const parts = [formulaToSmt(clause.constraint, symbol)];
          clause.head?.args.forEach((a, k) => parts.push(`(= ${linearToSmt(a, symbol)} ${args[k]})`));
          for (const app of clause.body) {
            const derived = below.get(app.predicate);
            const children = derived?.ids ?? [];
            node.children.push(children);
            if (!derived || children.length === 0) parts.push('false');
            else {
              app.args.forEach((a, k) => parts.push(`(= ${linearToSmt(a, symbol)} ${derived.args[k]})`));
              parts.push(`(or ${children.map((c) => nodes[c]!.selector).join(' ')})`);
            }
          }
          // An instance whose body cannot be derived below it is left out.
          if (parts.includes('false')) continue;
          asserted.push({ selector: node.selector, constraint: `(and ${parts.join(' ')})` });
          ids.push(nodes.length);
          nodes.push(node);
        }
        if (head === null) roots.push(...ids);
        else here.set(head, { args, ids });
      }
      // Unconditional, the only instance's equalities are solved away by z3's preprocessing.
      const [only] = asserted;
      if (exact && only && asserted.length === 1) {
        solver.assert(only.selector);
        solver.assert(only.constraint);
      } else for (const { selector, constraint } of asserted) solver.assert(`(=> ${selector} ${constraint})`);
      if (level === 0) return roots;
      below = here;
    }
    return [];
  }

  /** The instances that may derive `head(args)` (null: false) within `depth`; their constraints asserted. */
  private choices(solver: LiaSolver, nodes: TreeNode[], head: string | null, args: readonly string[], depth: number): number[] {
    if (depth === 0) return [];
    const ids: number[] = [];
    for (const clause of this.byHead.get(head) ?? []) {
      if (nodes.length >= CHC_UNFOLD_MAX_NODES) throw new TooManyNodes();
      const symbols = new Map(clause.variables.map((v) => [v, solver.intSymbol()]));
      const id = nodes.length;
      const node: TreeNode = { clause, symbols, selector: solver.boolSymbol(), children: [] };
      nodes.push(node);
      const symbol = lookup(symbols);
      const parts = [formulaToSmt(clause.constraint, symbol)];
      clause.head?.args.forEach((a, k) => parts.push(`(= ${linearToSmt(a, symbol)} ${args[k]})`));
      for (const app of clause.body) {
        const children = this.choices(solver, nodes, app.predicate, app.args.map((a) => linearToSmt(a, symbol)), depth - 1);
        node.children.push(children);
        parts.push(children.length === 0 ? 'false' : `(or ${children.map((c) => nodes[c]!.selector).join(' ')})`);
      }
      solver.assert(`(=> ${node.selector} (and ${parts.join(' ')}))`);
      ids.push(id);
    }
    return ids;
  }
}

/** The derivation a model of the unfolding chose: each used instance after the ones it depends on. */
function derivationFrom(model: LiaModel, nodes: readonly TreeNode[], roots: readonly number[]): Derivation | null {
  const steps: DerivationStep[] = [];
  const chosen = (ids: readonly number[]): number | undefined => ids.find((id) => model.bool(nodes[id]!.selector));
  // Post-order without recursion: a node's children are emitted before it.
  const root = chosen(roots);
  if (root === undefined) return null;
  const stack: { id: number; expanded: boolean }[] = [{ id: root, expanded: false }];
  while (stack.length > 0) {
    const top = stack.pop()!;
    const node = nodes[top.id]!;
    if (!top.expanded) {
      stack.push({ id: top.id, expanded: true });
      for (const options of [...node.children].reverse()) {
        const child = chosen(options);
        if (child === undefined) return null;
        stack.push({ id: child, expanded: false });
      }
      continue;
    }
    const values = new Map<string, ChcValue>();
    for (const v of node.clause.clause.vars) {
      const ir = node.clause.vars.get(v.name);
      const n = ir === undefined ? 0n : model.int(node.symbols.get(ir)!);
      values.set(v.name, v.sort === 'Bool' ? n !== 0n : n);
    }
    steps.push({ clause: node.clause.clause.index, values });
  }
  return { steps };
}
