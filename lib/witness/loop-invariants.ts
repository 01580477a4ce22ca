// Loop invariants at the loop keywords of the source, derived from the engine's certified cut-point
// invariants. With `--cutset headers` the cut-points are the loop headers themselves. With the paper's
// path cut-set (Theorem 1) they sit inside loop bodies, and the header's invariant is the weakest
// precondition of the paths from the header to the next cut-points:
//   H = ⋀ over paths τ from the header: guards(τ) ⇒ I_target(σ_τ)   (and ⇒ each assertion on τ).
// Every state reached at the header satisfies H (its continuations reach states that satisfy the
// certified invariants), and H is inductive for the header-only cut-set because each header-to-header
// iteration passes through a cut-point. Paths with a non-deterministic assignment would need a
// universal quantifier; their conjuncts are dropped (a weaker H stays true, and the witness is
// re-checked as a whole before it is written, see check.ts).
import { SIDE_QUERY_WORK } from '../limits.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import type { Program, SourcePos } from '../ir/cfg.js';
import { prepareAnalysis } from '../problem/prepare.js';
import type { InvariantReport } from '../result.js';
import type { CutsetStrategy } from '../vc/cutset.js';
import { enumeratePaths } from '../vc/paths.js';
import { pathConditions } from '../vc/vc.js';
import { simplifyInvariant } from '../ir/simplify.js';
import { isValid } from '../certify/lia.js';
import { conjuncts, formulaToC, typingOf, type CScope } from './c-expression.js';
import { withRemainderGhosts, type RemainderGhost } from '../ir/remainder-ghosts.js';

export interface LoopInvariant {
  readonly function: string;
  /** The loop keyword (`while`, `for`, `do`). */
  readonly pos: SourcePos;
  /** The loop head's location in the analysed procedure of the original program. */
  readonly location: number;
  /** Over IR variables of the analysed procedure. */
  readonly formula: Formula;
  /** C expression over the variables in scope at the loop. */
  readonly expression: string;
}

/** Variables the VC generator introduces for non-deterministic values (`x!h0`). */
const isHavocValue = (v: string): boolean => v.includes('!');

/**
 * Invariants of the loops of `fn`'s own body (loops of inlined callees hold per call site and are
 * not stated). `invariants` are the engine's, at cut-points of the procedure prepared with `strategy`.
 */
export async function loopInvariants(program: Program, fn: string, strategy: CutsetStrategy, invariants: readonly InvariantReport[]): Promise<LoopInvariant[]> {
  // Invariants over ghost quotients (verify's last Houdini try) are at cut-points of the ghosted program.
  const ghosted = withRemainderGhosts(program, fn);
  const ghosts = ghosted && invariants.some((i) => ghosted.ghosts.some((g) => F.variablesOf(i.formula).has(g.ghost))) ? ghosted.ghosts : [];
  const prepared = prepareAnalysis(ghosts.length > 0 ? ghosted!.program : program, fn, strategy);
  const { proc, original, cutpoints } = prepared.cut;
  const source = program.procedures.get(fn)!;
  const known = new Map(invariants.map((i) => [i.location, i.formula] as const));
  const out: LoopInvariant[] = [];
  for (const loc of proc.locations) {
    const orig = original[loc.id]!;
    // Locations of fn's own body keep their ids through inlining (copies of callees are appended).
    if (orig >= source.locations.length) continue;
    const header = source.locations[orig]!;
    if (!header.loopHeader || !header.pos || !header.scope) continue;
    const formula = known.get(loc.id) ?? weakestPrecondition(prepared.cut.proc, [...cutpoints], loc.id, known);
    const stated = await withoutValidConjuncts(inScope(formula, header.scope, ghosts));
    const expression = formulaToC(stated, header.scope, ghosts, typingOf(program, fn));
    if (expression === null) continue;
    out.push({ function: fn, pos: header.pos, location: orig, formula: stated, expression });
  }
  return out.sort((a, b) => a.pos.line - b.pos.line || a.pos.col - b.pos.col);
}

function weakestPrecondition(
  proc: Parameters<typeof enumeratePaths>[0],
  cutpoints: readonly number[],
  header: number,
  known: ReadonlyMap<number, Formula>,
): Formula {
  const paths = enumeratePaths(proc, [...cutpoints, header]).filter((p) => p.from === header);
  const parts: Formula[] = [];
  for (const path of paths) {
    for (const vc of pathConditions(path, (c) => known.has(c))) {
      const conclusion = vc.conclusion.kind === 'assertion'
        ? vc.conclusion.formula
        : F.substitute(known.get(vc.conclusion.app.cutpoint)!, vc.conclusion.app.subst);
      for (const goal of conjuncts(conclusion)) {
        const part = F.implies(vc.guards, goal);
        if ([...F.variablesOf(part)].some(isHavocValue)) continue;
        parts.push(part);
      }
    }
  }
  return tidy(F.and(...parts));
}

/** Drops conjuncts that hold in every state (e.g. `x >= 0 || x <= 0` from a trivial path): they say
 * nothing about the loop. A conjunct z3 cannot decide quickly is kept. */
async function withoutValidConjuncts(f: Formula): Promise<Formula> {
  const kept: Formula[] = [];
  for (const c of conjuncts(f)) if ((await isValid(c, { work: SIDE_QUERY_WORK })).status !== 'valid') kept.push(c);
  return F.and(...kept);
}

/** Keeps the conjuncts over variables in scope, or ghosts of them (a weaker formula stays an invariant). */
function inScope(f: Formula, scope: CScope, ghosts: readonly RemainderGhost[]): Formula {
  const visible = new Set(Object.values(scope));
  for (const g of ghosts) if (visible.has(g.variable)) visible.add(g.ghost);
  return F.and(...conjuncts(f).filter((c) => [...F.variablesOf(c)].every((v) => visible.has(v))));
}

/** Each conjunct in a small normal form (`!(x >= 0) || y >= 1` reads `x <= -1 || y >= 1`), duplicates
 * and trivially true conjuncts removed. */
function tidy(f: Formula): Formula {
  const seen = new Set<string>();
  const kept: Formula[] = [];
  for (const c of conjuncts(f)) {
    const s = F.dnf(c).length <= 16 ? simplifyInvariant(c) : F.nnf(c);
    if (s.kind === 'true') continue;
    const key = F.toC(s);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(s);
  }
  return F.and(...kept);
}
