// The verification problem as constrained Horn clauses in SMT-LIB (the CHC-COMP format), for other
// Horn solvers (Spacer, Eldarica, Golem). One uninterpreted predicate per unknown cut-point over the
// variables live there; one rule per verification condition of the prepared procedure:
//   initiation/consecution:  pre(X) ∧ guards ⇒ inv_c(X')   (X' bound by equalities to σ(X))
//   safety:                  pre(X) ∧ guards ∧ ¬assertion ⇒ false
// where pre is the precondition at the entry and inv_from elsewhere. Non-deterministic values are
// further universally quantified variables. `sat` means the program is safe, `unsat` unsafe.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Program } from '../ir/cfg.js';
import { prepareAnalysis, type PreparedAnalysis } from '../problem/prepare.js';
import type { CutsetStrategy } from '../vc/cutset.js';
import { formulaToSmt, linearToSmt } from '../certify/lia.js';

export interface ChcOptions {
  readonly function?: string;
  /** Cut-points of the clauses (default 'headers': one predicate per loop). */
  readonly cutset?: CutsetStrategy;
}

/** SMT-LIB quoted symbol: IR names contain characters like `!` (havoc values) and `#`. */
const sym = (v: string): string => `|${v.replace(/[|\\]/g, '_')}|`;
const primed = (v: string): string => sym(`${v}'`);

export function predicateName(cutpoint: number): string {
  return `inv_${cutpoint}`;
}

export function toChc(program: Program, options: ChcOptions = {}): string {
  return chcOf(prepareAnalysis(program, options.function, options.cutset ?? 'headers'));
}

export function chcOf(prepared: PreparedAnalysis): string {
  const vars = (c: number): readonly string[] => prepared.variables.get(c) ?? [];
  const isUnknown = new Set(prepared.unknownCutpoints);
  const lines: string[] = [
    `; farkas: Horn clauses of ${prepared.program.file}, function ${prepared.function} (${prepared.cut.strategy} cut-set)`,
    '(set-logic HORN)',
  ];
  for (const c of prepared.unknownCutpoints) lines.push(`(declare-fun ${predicateName(c)} (${vars(c).map(() => 'Int').join(' ')}) Bool)`);
  const app = (c: number, args: readonly string[]): string => (args.length === 0 ? predicateName(c) : `(${predicateName(c)} ${args.join(' ')})`);
  for (const vc of prepared.vcs) {
    const body: string[] = [];
    const bound = new Set<string>();
    const use = (f: Formula | L.Linear, isFormula: boolean): string => {
      if (isFormula) F.variablesOf(f as Formula, bound);
      else for (const v of (f as L.Linear).coeffs.keys()) bound.add(v);
      return isFormula ? formulaToSmt(f as Formula, sym) : linearToSmt(f as L.Linear, sym);
    };
    if (isUnknown.has(vc.from)) {
      for (const v of vars(vc.from)) bound.add(v);
      body.push(app(vc.from, vars(vc.from).map(sym)));
    } else if (vc.from === prepared.cut.proc.entry) {
      body.push(use(prepared.precondition, true));
    }
    body.push(use(vc.guards, true));
    let head: string;
    const heads: string[] = [];
    if (vc.conclusion.kind === 'assertion') {
      body.push(`(not ${use(vc.conclusion.formula, true)})`);
      head = 'false';
    } else {
      const target = vc.conclusion.app.cutpoint;
      const subst = vc.conclusion.app.subst;
      for (const v of vars(target)) {
        body.push(`(= ${primed(v)} ${use(subst.get(v) ?? L.variable(v), false)})`);
        heads.push(primed(v));
      }
      head = app(target, heads);
    }
    const quantified = [...[...bound].sort().map(sym), ...heads];
    const premise = body.filter((b) => b !== 'true');
    const implication = `(=> ${premise.length === 0 ? 'true' : premise.length === 1 ? premise[0] : `(and ${premise.join(' ')})`} ${head})`;
    lines.push(quantified.length === 0 ? `(assert ${implication})` : `(assert (forall (${quantified.map((q) => `(${q} Int)`).join(' ')}) ${implication}))`);
  }
  lines.push('(check-sat)', '(exit)');
  return lines.join('\n') + '\n';
}
