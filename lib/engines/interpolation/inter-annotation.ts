// Interprocedural lazy annotation (paper 000, Section 2.3, InterLA; notes/000.md §2.4) for programs
// whose analysed function calls (mutually) recursive procedures.
//
// Labels of a recursive procedure Q are *negative* and relative to Q's exit value R = `Q!ret`: a cube
// φ over Q's variables and R at location l means "from a state satisfying φ, Q cannot exit returning
// R". The exit carries the justified labels ret > R and ret < R; the labels at Q's entry are Q's
// negative summary, and their negations over-approximate Q's input/output relation.
//
// A call `v := Q(a)` from a caller state s with return-site labels ψ is a query SUM(Q, D) for each
// cube D of s^ ∧ params = a^ ∧ τ = τ^ − 1 ∧ ¬ψ^[v^ := R] (the caller's frame is renamed with a `^`
// suffix and held fixed; only one frame level is kept, outer frames being projected away, which is
// exact because the callee cannot touch them). SUM is the same depth-first search inside Q whose goal
// is an exit not blocked by the exit labels: a reached exit (DECIDEC) is composed back into the
// caller's state, an exact successor along that callee path; when every D is blocked by an entry
// label of Q, the call edge learns the interpolant between s and the call's semantics under those
// summary cubes followed by ¬ψ (LEARNC). Since the query carries the caller's frame only in the
// interpolant's A part, labels of Q never mention the caller.
//
// Recursion is bounded like loops: the time-to-live τ is passed to a callee decremented (and every
// location has the axiom label τ < 0). After a bounded search, τ := 0 in the entry function's
// cut-point labels and in every summary, and the greatest subset is kept that is justified: a summary
// cube N = pre ∧ post' of Q when every path of Q's body from N reaches the exit only with ret ≠ R,
// calls assuming the kept summaries; a cut-point cube as in the intraprocedural engine. These are the
// assume-guarantee obligations of the certificate checker (lib/check, `summaries`), which re-proves
// the result: each kept cube becomes a summary pair (pre ⇒ ¬post'), the cut-point labels invariants.
// "unsafe" needs the whole interprocedural path solved over the integers and replayed.
import type { CheckLimits } from '../../certify/lia-solver.js';
import * as F from '../../ir/formula.js';
import type { Formula } from '../../ir/formula.js';
import * as L from '../../ir/linear.js';
import { locationPos } from '../../ir/cfg.js';
import { atomsOfConjunction, atomVariables, cubeToFormula, negateAtom, normalizeCube, renameAtom, substituteAtom, type Atom } from '../../rational/constraints.js';
import { binaryInterpolant } from '../../rational/interpolate.js';
import { checkInvariants, type SummaryPairCertificate } from '../../certify/certificate.js';
import { isSatisfiable } from '../../certify/lia.js';
import { runProgram } from '../../interpreter/index.js';
import { replayed } from '../../guard/replay.js';
import { simplifyInvariant } from '../../ir/simplify.js';
import { summaryVariableToC } from '../../ir/summary-names.js';
import type { InvariantReport, SummaryReport } from '../../result.js';
import { EngineContext, realEntails, SearchStopped } from './context.js';
import { ERROR, Unsupported } from './model.js';
import { buildInterModel, type InterModel, type InterTransition, type ProcModel } from './inter-model.js';
import { eliminate } from './projection.js';
import { AXIOM, currentName, dedupe, Labels, learn, retreatingTransitions, stepOf, successor, TTL, type Cube } from './lazy-annotation.js';
import { unknownResult, unsafeResult } from './result.js';
import { fromSsa, ssaName } from './trace.js';
import type { EngineOptions, EngineResult } from '../types.js';
import type { Problem } from '../../problem/prepare.js';
import type { Settings } from '../../settings.js';

const MAX_TTL = 64;
/** Cubes a call's query (or a call label's refutation) may be split into before the search gives up. */
const MAX_SPLIT = 256;
/** Loop-free paths per procedure or cut-point enumerated for the strengthening. */
const MAX_SEGMENTS = 4_000;

const FRAME = '^';
const isFrame = (v: string): boolean => v.endsWith(FRAME);
const unframe = (v: string): string => v.slice(0, -FRAME.length);

interface PathStep {
  readonly t: InterTransition;
  /** For a call: the callee's path from its entry to its exit. */
  readonly sub?: readonly PathStep[];
}

interface State {
  readonly loc: number;
  readonly atoms: readonly Atom[];
  readonly path: readonly PathStep[];
}

type Outcome = { readonly kind: 'exit' | 'error'; readonly state: State } | { readonly kind: 'blocked' };

export async function interproceduralLazyAnnotation(problem: Problem, settings: Settings, options: EngineOptions = {}): Promise<EngineResult> {
  const ctx = new EngineContext('lazy-annotation', settings.deadline, options);
  const fn = problem.function;
  let model: InterModel;
  try {
    model = buildInterModel(problem);
  } catch (e) {
    if (e instanceof Unsupported) return unknownResult(ctx, fn, e.message);
    throw e;
  }
  try {
    return await new InterSearch(model, ctx).run();
  } catch (e) {
    if (e instanceof SearchStopped) return unknownResult(ctx, fn, e.message);
    throw e;
  }
}

/** ∃ (variables not kept). atoms; null when infeasible. */
function project(atoms: readonly Atom[], keep: (v: string) => boolean): Atom[] | null {
  let out: Atom[] | null = normalizeCube(atoms);
  for (const v of atomVariables(atoms)) {
    if (out === null) return null;
    if (!keep(v)) out = eliminate(out, v);
  }
  return out;
}

/** The cubes of `base ∧ ¬c1 ∧ … ∧ ¬ck` that are feasible over the reals (a cube already disjoint from ci is not split). */
function avoiding(base: readonly Atom[], avoid: readonly Cube[]): Atom[][] {
  const first = normalizeCube(base);
  let cubes: Atom[][] = first === null || realEntails(first, 'false') ? [] : [first];
  for (const c of avoid) {
    const next: Atom[][] = [];
    for (const d of cubes) {
      const meet = normalizeCube([...d, ...c]);
      if (meet === null || realEntails(meet, 'false')) {
        next.push(d);
        continue;
      }
      for (const a of c) {
        for (const neg of negateAtom(a)) {
          const cube = normalizeCube([...d, ...neg]);
          if (cube !== null && !realEntails(cube, 'false')) next.push(cube);
        }
      }
      if (next.length > MAX_SPLIT) throw new SearchStopped(`a call's query splits into more than ${MAX_SPLIT} cubes`);
    }
    cubes = next;
  }
  return cubes;
}

class InterSearch {
  private readonly labels = new Map<string, { locations: Labels; edges: Labels }>();
  private readonly retreating = new Map<string, Set<number>>();
  private readonly cutpoints: number[];

  constructor(private readonly model: InterModel, private readonly ctx: EngineContext) {
    for (const [name, pm] of model.procedures) {
      const annotation = { locations: new Labels(), edges: new Labels() };
      const ret = pm.proc.returnVar;
      if (pm.result !== null && ret !== null) {
        // The exit is justified to block exactly the exits other than R.
        annotation.locations.add(pm.proc.exit, [{ rel: '>=', expr: L.addConstant(L.sub(L.variable(ret), L.variable(pm.result)), -1n) }]);
        annotation.locations.add(pm.proc.exit, [{ rel: '>=', expr: L.addConstant(L.sub(L.variable(pm.result), L.variable(ret)), -1n) }]);
      }
      this.labels.set(name, annotation);
      const back = retreatingTransitions(pm);
      if (pm.summarised && back.size > 0) throw new SearchStopped(`recursive procedure '${name}' has a cycle in its control flow; summaries are checked on loop-free bodies only`);
      this.retreating.set(name, back);
    }
    const entry = model.entry;
    const back = this.retreating.get(entry.name)!;
    this.cutpoints = [...new Set(entry.transitions.filter((t) => back.has(t.id)).map((t) => t.to))].sort((a, b) => a - b);
  }

  async run(): Promise<EngineResult> {
    const entry = this.model.entry;
    for (let ttl = 0; ; ttl = ttl === 0 ? 1 : ttl * 2) {
      if (ttl > MAX_TTL) throw new SearchStopped(`no inductive annotation and summaries up to time-to-live ${MAX_TTL}`);
      if (ttl > 0) this.ctx.stats.restarts++;
      const root = [...this.model.precondition, { rel: '==' as const, expr: L.sub(L.variable(TTL), L.constant(ttl)) }];
      const outcome = await this.explore(entry, root);
      if (outcome.kind === 'error') return this.reachedError(outcome.state.path);
      const { proved, kept } = await this.strengthen();
      if (proved) return this.certify(kept);
      // Justified τ-free labels stay: they prune the next, deeper search.
      for (const [key, cubes] of kept) {
        const [name, loc] = splitKey(key);
        for (const c of cubes) this.labels.get(name)!.locations.add(loc, c);
      }
    }
  }

  private locationLabels(pm: ProcModel, loc: number): readonly Cube[] {
    return loc === ERROR ? [] : [AXIOM, ...this.labels.get(pm.name)!.locations.get(loc)];
  }

  private blocking(atoms: readonly Atom[], cubes: readonly Cube[]): Cube | null {
    this.ctx.checkBudget();
    return cubes.find((c) => realEntails(atoms, c)) ?? null;
  }

  /** The depth-first search of one procedure from `root` (IntraLA with DECIDEC/LEARNC at calls). */
  private async explore(pm: ProcModel, root: readonly Atom[]): Promise<Outcome> {
    const annotation = this.labels.get(pm.name)!;
    const back = this.retreating.get(pm.name)!;
    const stack: State[] = [{ loc: pm.proc.entry, atoms: root, path: [] }];
    while (stack.length > 0) {
      const s = stack[stack.length - 1]!;
      if (this.blocking(s.atoms, this.locationLabels(pm, s.loc))) {
        this.ctx.stats.covered++;
        stack.pop();
        continue;
      }
      if (pm.summarised && s.loc === pm.proc.exit) return { kind: 'exit', state: s };
      let moved = false;
      const conjunction: Atom[] = [];
      for (const t of pm.outgoing.get(s.loc) ?? []) {
        const edgeLabel = this.blocking(s.atoms, annotation.edges.get(t.id));
        if (edgeLabel) {
          conjunction.push(...edgeLabel);
          continue;
        }
        if (t.call) {
          const step = await this.callStep(pm, s, t);
          if (step.kind === 'successor') {
            this.ctx.stats.nodes++;
            stack.push(step.state);
            moved = true;
            break;
          }
          this.ctx.stats.refinements++;
          annotation.edges.add(t.id, step.label);
          conjunction.push(...step.label);
          continue;
        }
        const retreating = back.has(t.id);
        const atoms = successor(s.atoms, t, retreating);
        const next: State = { loc: t.to, atoms: atoms === 'false' ? [] : atoms, path: [...s.path, { t }] };
        const blocker: Cube | 'infeasible' | null = atoms === 'false' ? 'infeasible' : this.blocking(next.atoms, this.locationLabels(pm, t.to));
        if (blocker === null) {
          if (t.to === ERROR) return { kind: 'error', state: next };
          this.ctx.stats.nodes++;
          stack.push(next);
          moved = true;
          break;
        }
        const learned = withoutFrames(learn({ loc: s.loc, atoms: s.atoms, path: [] }, t, retreating, blocker));
        this.ctx.stats.refinements++;
        annotation.edges.add(t.id, learned);
        conjunction.push(...learned);
      }
      if (!moved) {
        const label = normalizeCube(conjunction);
        if (label === null) throw new Error('lazy annotation: a location label is false although its state is feasible');
        annotation.locations.add(s.loc, dedupe(label));
        stack.pop();
      }
    }
    return { kind: 'blocked' };
  }

  /** DECIDEC (a successor through a callee path) or LEARNC (a label of the call edge). */
  private async callStep(pm: ProcModel, s: State, t: InterTransition): Promise<{ kind: 'successor'; state: State } | { kind: 'label'; label: Cube }> {
    const call = t.call!;
    const callee = this.model.procedures.get(call.callee)!;
    const globals = this.model.globals;
    const own = project(s.atoms, (v) => !isFrame(v));
    if (own === null) return { kind: 'label', label: [] };
    const toFrame = (v: string): string => (globals.has(v) ? v : `${v}${FRAME}`);
    const bind: Atom[] = callee.proc.params.map((p, i) => ({ rel: '==', expr: L.sub(L.variable(p), L.rename(call.args[i]!, toFrame)) }));
    bind.push({ rel: '==', expr: L.addConstant(L.sub(L.variable(TTL), L.variable(toFrame(TTL))), 1n) });
    const target = call.target;
    const result = callee.result ?? `${callee.name}!none`;
    const returnSite = this.locationLabels(pm, t.to);
    const queries = avoiding(
      [...own.map((a) => renameAtom(a, toFrame)), ...bind],
      returnSite.map((c) => c.map((a) => renameAtom(a, (v) => (v === target ? result : toFrame(v))))),
    );
    const used: Cube[] = [];
    let learnable = true;
    for (const query of queries) {
      const outcome = await this.explore(callee, query);
      if (outcome.kind === 'error') throw new Error(`internal: an error inside summarised procedure '${callee.name}'`);
      if (outcome.kind === 'blocked') {
        const summary = this.blocking(query, this.locationLabels(callee, callee.proc.entry));
        if (summary) used.push(summary);
        else learnable = false;
        continue;
      }
      const next = this.compose(s, callee, call.target, outcome.state);
      if (next !== null && this.blocking(next, returnSite) === null) {
        return { kind: 'successor', state: { loc: t.to, atoms: next, path: [...s.path, { t, sub: outcome.state.path }] } };
      }
      learnable = false; // blocked only after rounding: no interpolant to learn from
    }
    return { kind: 'label', label: learnable ? this.learnCall(own, t, callee, used, returnSite) : own };
  }

  /** The caller's state after the call returned along the callee path that ended in `exit`. */
  private compose(s: State, callee: ProcModel, target: string | null, exit: State): Atom[] | null {
    const globals = this.model.globals;
    const ret = callee.proc.returnVar;
    const result = callee.result;
    const atoms = [...exit.atoms];
    if (ret !== null && result !== null) atoms.push({ rel: '==', expr: L.sub(L.variable(ret), L.variable(result)) });
    const relation = project(atoms, (v) => isFrame(v) || globals.has(v) || (v === result && target !== null));
    if (relation === null) return null;
    const old = target === null ? null : `${target}#old`;
    const back = relation.map((a) => renameAtom(a, (v) => (v === result && target !== null ? target : old !== null && v === `${target}${FRAME}` ? old : isFrame(v) ? unframe(v) : v)));
    const before = old === null ? s.atoms : s.atoms.map((a) => renameAtom(a, (v) => (v === target ? old : v)));
    const joined = normalizeCube([...before, ...back]);
    if (joined === null) return null;
    const next = old === null ? joined : eliminate(joined, old);
    return next === null || realEntails(next, 'false') ? null : next;
  }

  /**
   * LEARNC: an interpolant between the caller's state and the call under the summary cubes that
   * blocked its queries, followed by the negation of the return site's labels.
   */
  private learnCall(own: readonly Atom[], t: InterTransition, callee: ProcModel, used: readonly Cube[], returnSite: readonly Cube[]): Cube {
    const call = t.call!;
    const before = currentName(new Map());
    const after = currentName(new Map(call.target === null ? [] : [[call.target, 1]]));
    const resultName = call.target === null ? ssaName(`${callee.name}!none`, 1) : after(call.target);
    const state = own.map((a) => renameAtom(a, before));
    const entrySubst = this.callSubstitution(callee, call.args.map((e) => L.rename(e, before)), resultName, before);
    const avoid = [
      ...used.map((n) => n.map((a) => substituteAtom(a, entrySubst(a)))),
      ...returnSite.map((c) => c.map((a) => renameAtom(a, after))),
    ];
    const out: Atom[] = [];
    for (const b of avoiding([], avoid)) {
      const itp = binaryInterpolant(state, b, { inequalitiesOnly: true });
      if (itp === null || itp.kind === 'false') return [...own];
      const atoms = atomsOfConjunction(fromSsa(itp));
      if (atoms === null) return [...own];
      out.push(...atoms);
    }
    return dedupe(out);
  }

  /** Maps a cube over the callee's entry (params, globals, τ, R) to the caller's names at a call. */
  private callSubstitution(callee: ProcModel, args: readonly L.Linear[], resultName: string, name: (v: string) => string): (a: Atom) => Map<string, L.Linear> {
    return (a) => {
      const subst = new Map<string, L.Linear>();
      for (const v of a.expr.coeffs.keys()) {
        const i = callee.proc.params.indexOf(v);
        if (i >= 0) subst.set(v, args[i]!);
        else if (v === TTL) subst.set(v, L.addConstant(L.variable(name(TTL)), -1n));
        else if (v === callee.result) subst.set(v, L.variable(resultName));
        else subst.set(v, L.variable(name(v)));
      }
      return subst;
    };
  }

  // ---- strengthening: the greatest justified τ-free subset of summaries and cut-point labels ----

  private async strengthen(): Promise<{ proved: boolean; kept: Map<string, Cube[]> }> {
    const zero = new Map([[TTL, L.constant(0)]]);
    const kept = new Map<string, Cube[]>();
    const candidates = (name: string, loc: number, allowed: ReadonlySet<string> | null): void => {
      const out: Cube[] = [];
      for (const c of this.labels.get(name)!.locations.get(loc)) {
        const cube = normalizeCube(c.map((a) => substituteAtom(a, zero)));
        if (cube === null || (allowed && [...atomVariables(cube)].some((v) => !allowed.has(v)))) continue;
        if (!out.some((d) => cubeKey(d) === cubeKey(cube))) out.push(cube);
      }
      kept.set(key(name, loc), out);
    };
    for (const h of this.cutpoints) candidates(this.model.entry.name, h, null);
    for (const pm of this.model.procedures.values()) {
      if (!pm.summarised) continue;
      candidates(pm.name, pm.proc.entry, new Set([...pm.proc.params, ...this.model.globals, ...(pm.result ? [pm.result] : [])]));
    }
    for (let changed = true; changed;) {
      changed = false;
      for (const [k, cubes] of kept) {
        const [name, loc] = splitKey(k);
        for (const cube of [...cubes]) {
          if (await this.leadsInto(this.model.procedures.get(name)!, loc, cube, kept)) continue;
          kept.set(k, kept.get(k)!.filter((c) => c !== cube));
          changed = true;
        }
      }
    }
    const entry = this.model.entry;
    const initial = this.model.precondition;
    const proved = this.cutpoints.includes(entry.proc.entry)
      ? await this.implies(F.TRUE, initial, new Map(), kept.get(key(entry.name, entry.proc.entry)) ?? [])
      : await this.leadsInto(entry, entry.proc.entry, initial, kept);
    return { proved, kept };
  }

  /** Every loop-free path from `from` in `cube` ends in the kept labels of its target (the exit: with ret ≠ R; never the error). */
  private async leadsInto(pm: ProcModel, from: number, cube: Cube, kept: ReadonlyMap<string, Cube[]>): Promise<boolean> {
    for (const segment of this.segmentsFrom(pm, from)) {
      let version = new Map<string, number>();
      const atoms: Atom[] = cube.map((a) => renameAtom(a, currentName(version)));
      const calls: Formula[] = [];
      for (const t of segment.path) {
        if (t.call) {
          const { constraint, version: v } = this.callConstraint(version, t, kept);
          calls.push(constraint);
          version = v;
          continue;
        }
        const step = stepOf(version, t, false);
        atoms.push(...step.group);
        version = step.version;
      }
      let goal: Cube[];
      if (segment.target === 'exit') {
        const ret = pm.proc.returnVar;
        if (pm.result === null || ret === null) return false; // a void procedure's summary says "never returns"
        atoms.push({ rel: '==', expr: L.sub(L.variable(currentName(version)(ret)), L.variable(currentName(version)(pm.result))) });
        goal = [];
      } else if (segment.target === null) continue;
      else goal = segment.target === ERROR ? [] : kept.get(key(pm.name, segment.target)) ?? [];
      if (!(await this.implies(F.and(...calls), atoms, version, goal))) return false;
    }
    return true;
  }

  /** The call's effect under the kept summaries: target gets a value the summaries do not exclude. */
  private callConstraint(version0: ReadonlyMap<string, number>, t: InterTransition, kept: ReadonlyMap<string, Cube[]>): { constraint: Formula; version: Map<string, number> } {
    const call = t.call!;
    const callee = this.model.procedures.get(call.callee)!;
    const before = currentName(version0);
    const version = new Map(version0);
    let resultName = ssaName(`${callee.name}!none`, t.id);
    if (call.target !== null) {
      version.set(call.target, (version.get(call.target) ?? 0) + 1);
      resultName = currentName(version)(call.target);
    }
    const subst = this.callSubstitution(callee, call.args.map((e) => L.rename(e, before)), resultName, before);
    const summaries = kept.get(key(callee.name, callee.proc.entry)) ?? [];
    return { constraint: F.and(...summaries.map((n) => F.not(cubeToFormula(n.map((a) => substituteAtom(a, subst(a))))))), version };
  }

  /** calls ∧ atoms ⇒ ⋁ goal over the current versions: by Farkas for cubes, else z3 over the integers. */
  private async implies(calls: Formula, atoms: readonly Atom[], version: ReadonlyMap<string, number>, goal: readonly Cube[]): Promise<boolean> {
    this.ctx.checkBudget();
    const renamed = goal.map((c) => c.map((a) => renameAtom(a, currentName(version))));
    if (realEntails(atoms, 'false') || renamed.some((c) => realEntails(atoms, c))) return true;
    const status = await this.ctx.satisfiable(F.and(calls, cubeToFormula(atoms), F.not(F.or(...renamed.map(cubeToFormula)))));
    return status === 'unsat';
  }

  private readonly segmentCache = new Map<string, { path: InterTransition[]; target: number | 'exit' | null }[]>();

  private segmentsFrom(pm: ProcModel, from: number): { path: InterTransition[]; target: number | 'exit' | null }[] {
    const k = key(pm.name, from);
    const known = this.segmentCache.get(k);
    if (known) return known;
    const cuts = new Set(pm.summarised ? [] : this.cutpoints);
    const out: { path: InterTransition[]; target: number | 'exit' | null }[] = [];
    const walk = (loc: number, path: InterTransition[]): void => {
      const ts = pm.outgoing.get(loc) ?? [];
      if (ts.length === 0) out.push({ path, target: pm.summarised && loc === pm.proc.exit ? 'exit' : null });
      for (const t of ts) {
        if (out.length > MAX_SEGMENTS) throw new SearchStopped(`more than ${MAX_SEGMENTS} loop-free paths in '${pm.name}'`);
        const next = [...path, t];
        if (t.to === ERROR || cuts.has(t.to)) out.push({ path: next, target: t.to });
        else walk(t.to, next);
      }
    };
    walk(from, []);
    this.segmentCache.set(k, out);
    return out;
  }

  // ---- answers ----

  /** The kept labels as the certificate checker's invariants and summary pairs; "safe" only if it proves them. */
  private async certify(kept: ReadonlyMap<string, Cube[]>): Promise<EngineResult> {
    const model = this.model;
    const entry = model.entry;
    const invariants = new Map(this.cutpoints.map((h) => [h, simplifyInvariant(F.or(...(kept.get(key(entry.name, h)) ?? []).map(cubeToFormula)))] as const));
    const summaries = new Map<string, SummaryPairCertificate[]>();
    const summaryReports: SummaryReport[] = [];
    for (const pm of model.procedures.values()) {
      if (!pm.summarised) continue;
      const pairs = (kept.get(key(pm.name, pm.proc.entry)) ?? []).map((n) => summaryPair(n, pm.result));
      summaries.set(pm.name, pairs);
      const toC = summaryVariableToC(pm.name);
      summaryReports.push({
        procedure: pm.name,
        pairs: pairs.map((p) => ({ pre: F.toC(p.pre, toC), post: F.toC(p.post, toC), preFormula: p.pre, postFormula: p.post })),
      });
    }
    const check = await checkInvariants(model.program, model.function, invariants, {
      precondition: cubeToFormula(model.precondition),
      summaries,
      deadline: this.ctx.deadline,
    });
    const reports = reportInvariants(entry, model.function, invariants);
    const ctx = this.ctx;
    if (!check.valid) return { ...unknownResult(ctx, model.function, `certificate rejected: ${check.reason ?? 'an obligation was not proved'}`, reports), summaries: summaryReports };
    const { reason: _none, ...base } = unknownResult(ctx, model.function, '', reports);
    return {
      ...base,
      verdict: 'safe',
      certified: true,
      cutpoints: invariants.size,
      summaries: summaryReports,
    };
  }

  private async reachedError(path: readonly PathStep[]): Promise<EngineResult> {
    const outcome = await concretizeInter(this.model, path, this.ctx.queryLimits());
    if (outcome.kind === 'counterexample') return unsafeResult(this.ctx, this.model.function, outcome.counterexample);
    throw new SearchStopped(outcome.reason);
  }
}

/** A negative summary cube N = pre ∧ post' (post' the atoms that mention R) as the pair pre ⇒ ¬post'. */
function summaryPair(n: Cube, result: string | null): SummaryPairCertificate {
  const mentionsResult = (a: Atom): boolean => result !== null && a.expr.coeffs.has(result);
  return {
    pre: cubeToFormula(n.filter((a) => !mentionsResult(a))),
    post: simplifyInvariant(F.not(cubeToFormula(n.filter(mentionsResult)))),
    invariants: new Map(),
  };
}

function reportInvariants(pm: ProcModel, fn: string, invariants: ReadonlyMap<number, Formula>): InvariantReport[] {
  const proc = pm.proc;
  return [...invariants]
    .map(([loc, formula]) => {
      const pos = locationPos(proc, loc);
      return { function: fn, line: pos.line, col: pos.col, expression: F.toC(formula), location: loc, formula };
    })
    .sort((a, b) => a.line - b.line || a.col - b.col || a.location - b.location);
}

/** A label learned in a callee must not speak of its caller's frame. */
function withoutFrames(cube: Cube): Cube {
  if (!cube.some((a) => [...a.expr.coeffs.keys()].some(isFrame))) return cube;
  return project(cube, (v) => !isFrame(v)) ?? [];
}

const key = (name: string, loc: number): string => `${loc}:${name}`;
function splitKey(k: string): [string, number] {
  const i = k.indexOf(':');
  return [k.slice(i + 1), Number(k.slice(0, i))];
}
const cubeKey = (c: Cube): string => c.map((a) => `${a.rel}${L.key(a.expr)}`).sort().join(' & ');

type Concrete =
  | { readonly kind: 'counterexample'; readonly counterexample: import('../../result.js').Counterexample }
  | { readonly kind: 'unknown'; readonly reason: string };

/**
 * Solves the whole interprocedural path (every callee instance with its own variables, parameters
 * bound to the arguments, other frame slots 0 as in the interpreter) over the integers, then replays
 * the inputs and the nondet stream, in execution order, on the original program.
 */
async function concretizeInter(model: InterModel, path: readonly PathStep[], limits: CheckLimits): Promise<Concrete> {
  const atoms: Formula[] = [];
  const slots: ({ kind: 'value'; value: bigint } | { kind: 'havoc'; name: string; lo?: bigint; hi?: bigint })[] = [];
  const globalVersion = new Map<string, number>();
  let instances = 0;
  const eq = (a: L.Linear, b: L.Linear): Formula => F.eqZero(L.sub(a, b));
  const walk = (pm: ProcModel, steps: readonly PathStep[], instance: number): ((v: string) => string) => {
    const version = new Map<string, number>();
    const name = (v: string): string => (model.globals.has(v) ? `${v}@${globalVersion.get(v) ?? 0}` : `${instance}|${v}@${version.get(v) ?? 0}`);
    const bump = (v: string): void => {
      const versions = model.globals.has(v) ? globalVersion : version;
      versions.set(v, (versions.get(v) ?? 0) + 1);
    };
    if (instance === 0) atoms.push(...model.precondition.map((a) => cubeToFormula([renameAtom(a, name)])));
    for (const step of steps) {
      const t = step.t;
      if (pm.proc.locations[t.from]?.choice) {
        const smaller = Math.min(...pm.proc.edges.filter((e) => e.from === t.from).map((e) => e.id));
        slots.push({ kind: 'value', value: t.edge.id === smaller ? 1n : 0n });
      }
      if (t.call) {
        const callee = model.procedures.get(t.call.callee)!;
        const k = ++instances;
        const args = t.call.args.map((e) => L.rename(e, name));
        callee.proc.params.forEach((p, i) => atoms.push(eq(L.variable(`${k}|${p}@0`), args[i]!)));
        for (const v of new Set([...callee.proc.locals, ...(callee.proc.returnVar ? [callee.proc.returnVar] : [])])) {
          if (!callee.proc.params.includes(v)) atoms.push(eq(L.variable(`${k}|${v}@0`), L.constant(0)));
        }
        const calleeName = walk(callee, step.sub ?? [], k);
        if (t.call.target !== null && callee.proc.returnVar !== null) {
          bump(t.call.target);
          atoms.push(eq(L.variable(name(t.call.target)), L.variable(calleeName(callee.proc.returnVar))));
        }
        continue;
      }
      atoms.push(...t.guard.map((a) => cubeToFormula([renameAtom(a, name)])));
      const u = t.update;
      if (u?.kind === 'assign') {
        const expr = L.rename(u.expr, name);
        bump(u.target);
        atoms.push(eq(L.variable(name(u.target)), expr));
      } else if (u?.kind === 'havoc') {
        bump(u.target);
        const s = t.edge.stmt;
        const range = s.kind === 'havoc' ? s.range : undefined;
        // A ghost's value is computed by the interpreter, not read from the stream.
        if (!(s.kind === 'havoc' && s.ghost)) slots.push({ kind: 'havoc', name: name(u.target), ...(range ? { lo: range.lo, hi: range.hi } : {}) });
      }
    }
    return name;
  };
  walk(model.entry, path, 0);
  for (const s of slots) {
    if (s.kind === 'havoc' && s.lo !== undefined && s.hi !== undefined) {
      atoms.push(F.geqZero(L.sub(L.variable(s.name), L.constant(s.lo))), F.geqZero(L.sub(L.constant(s.hi), L.variable(s.name))));
    }
  }
  const sat = await isSatisfiable(F.and(...atoms), limits);
  if (sat.status === 'unsat') return { kind: 'unknown', reason: 'an error path is infeasible over the integers only (no linear interpolant over the reals)' };
  if (sat.status === 'unknown') return { kind: 'unknown', reason: `path feasibility: ${sat.reason ?? 'z3 gave no answer'}` };
  const value = (v: string): bigint => sat.model!.get(v) ?? 0n;
  const inputs = new Map(model.entry.proc.params.map((p) => [p, value(`0|${p}@0`)] as const));
  const nondet = slots.map((s) => (s.kind === 'value' ? s.value : value(s.name)));
  const run = runProgram(model.original, { entry: model.function, inputs, nondet, nondetDefault: 0n }); // the interpreter's default step limit
  const counterexample = run.outcome.kind === 'assertion-failed' ? replayed(model.original, model.function, run) : null;
  if (counterexample === null) return { kind: 'unknown', reason: `a feasible error path did not replay on the interpreter (outcome: ${run.outcome.kind})` };
  return { kind: 'counterexample', counterexample };
}
