// Horn clauses → each clause as formulas (ClauseFormula, what clause-solver.ts reads), and linear ones
// also → the program IR every engine reads (paper 004's problem, from the other side):
// one procedure whose locations are the predicates (over their arguments), the entry and the exit.
// The cut-points are the predicates every cycle of clauses passes through (the loop headers of the
// cut-set); the others are inlined into the paths between them, as a C program's straight-line code
// is, and get their interpretation from their cut-point predecessors (model.ts). A clause `P(t) ∧ φ ⇒ Q(s)` is a sequence of edges from P's
// location to Q's: its variables are bound (to P's arguments, by equalities of φ solved for one
// variable, or by havoc), φ is assumed, and Q's arguments are assigned s. A fact leaves the entry; a
// query ends in `assert(false)`. Where several clauses leave one location, a chain of choice
// locations picks one, so concrete runs of the procedure are derivations: the samplers, the
// falsifier and every engine see the clauses as they see a C program.
//
// Sorts: a Bool is an integer in {0, 1} (assumed wherever one is chosen, so the proofs know it);
// `ite`, `div`, `mod`, `abs` and Booleans used as values are ghosts pinned by the next assumption,
// which concrete runs compute (interpreter/pinned.ts).
import type { Edge, Location, Procedure, Program, SourcePos, Stmt } from '../ir/cfg.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { syntaxError, unsupported } from '../diagnostics.js';
import { headOf, isAtom, type SExpr } from './sexpr.js';
import { letScope, lookupLet } from './parse.js';
import type { Reduction } from './eliminate.js';
import type { ChcSort, ChcSystem, Clause, LetScope, Predicate, PredicateApp, Scoped } from './system.js';

/** The name of the procedure a clause system becomes. */
export const CHC_PROCEDURE = 'main';

export interface PredicateLocation {
  readonly predicate: Predicate;
  readonly location: number;
  /** The IR variable of each argument. */
  readonly vars: readonly string[];
}

export interface ClauseEdges {
  readonly clause: Clause;
  /** The clause's last edge: into its head's location, or its `assert(false)`. */
  readonly lastEdge: number;
  /** Each clause variable's IR variable (absent: the clause does not use it). */
  readonly vars: ReadonlyMap<string, string>;
}

export interface ChcProgram {
  readonly system: ChcSystem;
  readonly program: Program;
  readonly predicates: ReadonlyMap<string, PredicateLocation>;
  readonly clauses: readonly ClauseEdges[];
  /** The IR variables that hold a Bool (0 or 1). */
  readonly booleans: ReadonlySet<string>;
  /** Each clause as formulas over the predicates' variables (clause-solver.ts solves them). */
  readonly formulas: readonly ClauseFormula[];
  /** Some clause has several predicates in its body. The program then has the predicates' locations
   * and no clause edges: the engines on control-flow graphs do not apply. */
  readonly nonlinear: boolean;
  /** A reduced system (eliminate.ts): the input it was reduced from, where answers are checked. */
  readonly reducedFrom?: ReducedFrom;
}

export interface ReducedFrom {
  readonly input: ChcProgram;
  readonly reduction: Reduction;
}

/** A clause over IR variables: `⋀ body(args) ∧ constraint ⇒ head(args)`. */
export interface ClauseFormula {
  readonly clause: Clause;
  /** Each clause variable's IR variable (absent: the clause does not use it). */
  readonly vars: ReadonlyMap<string, string>;
  /** Every IR variable of the clause: its variables and its ghosts. */
  readonly variables: readonly string[];
  readonly body: readonly AppliedPredicate[];
  /** The constraint, the ghosts' definitions and the 0/1 range of each Boolean. */
  readonly constraint: Formula;
  readonly head: AppliedPredicate | null;
}

export interface AppliedPredicate {
  readonly predicate: string;
  readonly args: readonly Linear[];
}

/** Terms nest at most this deep (beyond and/or/let chains, which are read without recursion). */
const MAX_TERM_DEPTH = 2000;

type Value = { readonly kind: 'int'; readonly e: Linear } | { readonly kind: 'bool'; readonly f: Formula };

class Names {
  private readonly used = new Set<string>();
  fresh(base: string): string {
    let name = base.replace(/[^A-Za-z0-9_]/g, '_');
    if (!/^[A-Za-z_]/.test(name)) name = `_${name}`;
    if (name === '') name = '_v';
    let candidate = name;
    for (let k = 2; this.used.has(candidate); k++) candidate = `${name}_${k}`;
    this.used.add(candidate);
    return candidate;
  }
}

export function lowerChc(system: ChcSystem): ChcProgram {
  if (system.clauses.some((c) => c.body.length > 1)) return lowerNonlinear(system);
  const names = new Names();
  const booleans = new Set<string>();
  const locations: { id: number; pos?: SourcePos; loopHeader: boolean; label?: string; choice?: boolean }[] = [];
  const edges: Edge[] = [];
  const locals: string[] = [];
  const pos0: SourcePos = { file: system.file, line: 1, col: 1 };
  const newLocation = (label: string, pos: SourcePos | undefined, loopHeader = false): number => {
    const id = locations.length;
    locations.push({ id, ...(pos ? { pos } : {}), loopHeader, label });
    return id;
  };
  const entry = newLocation('entry', pos0);
  const exit = newLocation('exit', undefined);
  const predicates = predicateLocations(system, { names, booleans, locals }, (p) => newLocation(`predicate ${p.name}`, p.pos));
  const addEdge = (from: number, to: number, stmt: Stmt, pos: SourcePos): Edge => {
    const edge: Edge = { id: edges.length, from, to, stmt, pos };
    edges.push(edge);
    return edge;
  };
  // The clauses leaving each location, in file order.
  const leaving = new Map<number, Clause[]>([[entry, []], ...[...predicates.values()].map((p) => [p.location, []] as [number, Clause[]])]);
  for (const c of system.clauses) leaving.get(c.body.length === 0 ? entry : predicates.get(c.body[0]!.predicate.name)!.location)!.push(c);
  const clauseEdges: ClauseEdges[] = new Array(system.clauses.length);
  for (const [source, clauses] of leaving) {
    if (clauses.length === 0) {
      addEdge(source, exit, { kind: 'skip' }, locations[source]!.pos ?? pos0);
      continue;
    }
    // A chain of choices: a non-zero choice takes the clause, zero moves on to the next choice.
    const starts: number[] = [];
    let at = source;
    for (let k = 0; k < clauses.length - 1; k++) {
      const start = newLocation(`clause ${clauses[k]!.index + 1}`, clauses[k]!.pos);
      const next = newLocation('choice', clauses[k + 1]!.pos);
      locations[at]!.choice = true;
      addEdge(at, start, { kind: 'skip' }, clauses[k]!.pos);
      addEdge(at, next, { kind: 'skip' }, clauses[k]!.pos);
      starts.push(start);
      at = next;
    }
    starts.push(at);
    clauses.forEach((clause, k) => {
      clauseEdges[clause.index] = lowerClause(clause, starts[k]!, { predicates, names, booleans, locals, exit, newLocation, addEdge });
    });
  }
  const proc: Procedure = {
    name: CHC_PROCEDURE,
    params: [],
    locals,
    returnVar: null,
    entry,
    exit,
    locations: locations as Location[],
    edges,
    pos: pos0,
  };
  const program: Program = { file: system.file, globals: [], procedures: new Map([[CHC_PROCEDURE, proc]]), entry: CHC_PROCEDURE, fromHornClauses: true };
  // The clauses as formulas too, over variables of their own (not locals of the procedure).
  const formulas = clauseFormulas(system, { predicates, names, booleans, locals: [] });
  return { system, program, predicates, clauses: clauseEdges, booleans, formulas, nonlinear: false };
}

/** A nonlinear system: the predicates' locations and variables, as for linear ones, and each clause
 * as formulas. */
function lowerNonlinear(system: ChcSystem): ChcProgram {
  const names = new Names();
  const booleans = new Set<string>();
  const locals: string[] = [];
  const pos0: SourcePos = { file: system.file, line: 1, col: 1 };
  const locations: Location[] = [{ id: 0, pos: pos0, loopHeader: false }, { id: 1, loopHeader: false }];
  const predicates = predicateLocations(system, { names, booleans, locals }, (p) => {
    locations.push({ id: locations.length, pos: p.pos, loopHeader: true });
    return locations.length - 1;
  });
  const formulas = clauseFormulas(system, { predicates, names, booleans, locals });
  const proc: Procedure = {
    name: CHC_PROCEDURE, params: [], locals, returnVar: null, entry: 0, exit: 1, locations,
    edges: [{ id: 0, from: 0, to: 1, stmt: { kind: 'skip' }, pos: pos0 }], pos: pos0,
  };
  const program: Program = { file: system.file, globals: [], procedures: new Map([[CHC_PROCEDURE, proc]]), entry: CHC_PROCEDURE, fromHornClauses: true };
  return { system, program, predicates, clauses: [], booleans, formulas, nonlinear: true };
}

/** Each clause as formulas over fresh IR variables (recorded in `b.locals`). */
function clauseFormulas(system: ChcSystem, b: TermBuilder): ClauseFormula[] {
  return system.clauses.map((clause): ClauseFormula => {
    const clauseLocals: string[] = [];
    const terms = clauseTerms(clause, { ...b, locals: clauseLocals });
    const body = clause.body.map((app) => ({ predicate: app.predicate.name, args: terms.argumentValues(app) }));
    const conjuncts = terms.constraintConjuncts();
    const head = clause.head ? { predicate: clause.head.predicate.name, args: terms.argumentValues(clause.head) } : null;
    b.locals.push(...clauseLocals);
    const ranges = clauseLocals.filter((v) => b.booleans.has(v)).map((v) => F.inRange(L.variable(v), { lo: 0n, hi: 1n }));
    return {
      clause,
      vars: new Map([...terms.vars].map(([name, v]) => [name, v.ir])),
      variables: clauseLocals,
      body,
      constraint: F.and(...conjuncts, ...terms.ghosts.map((g) => g.def), ...ranges),
      head,
    };
  });
}

/** Each predicate's location (made by `newLocation`) and a fresh variable per argument. */
function predicateLocations(system: ChcSystem, b: Omit<TermBuilder, 'predicates'>, newLocation: (p: Predicate) => number): Map<string, PredicateLocation> {
  const predicates = new Map<string, PredicateLocation>();
  for (const p of system.predicates.values()) {
    const vars = p.sorts.map((sort, k) => {
      const v = b.names.fresh(argumentName(system, p, k));
      b.locals.push(v);
      if (sort === 'Bool') b.booleans.add(v);
      return v;
    });
    predicates.set(p.name, { predicate: p, location: newLocation(p), vars });
  }
  return predicates;
}

/** A predicate argument's name: the variable in that place of the first head that has a plain,
 * distinct variable there, else `P_k`. */
function argumentName(system: ChcSystem, p: Predicate, k: number): string {
  for (const c of system.clauses) {
    if (c.head?.predicate !== p) continue;
    const arg = c.head.args[k]!.expr;
    if (isAtom(arg) && c.vars.some((v) => v.name === arg.text) && c.head.args.filter((a) => isAtom(a.expr) && a.expr.text === arg.text).length === 1) return arg.text;
  }
  return `${p.name}_${k}`;
}

interface Builder {
  readonly predicates: ReadonlyMap<string, PredicateLocation>;
  readonly names: Names;
  readonly booleans: Set<string>;
  readonly locals: string[];
  readonly exit: number;
  newLocation(label: string, pos: SourcePos | undefined): number;
  addEdge(from: number, to: number, stmt: Stmt, pos: SourcePos): Edge;
}

/** What reading a clause's terms needs: fresh IR names, recorded as locals (and Booleans). */
type TermBuilder = Pick<Builder, 'predicates' | 'names' | 'booleans' | 'locals'>;

interface Ghost {
  readonly name: string;
  readonly def: Formula;
}

/** The terms of one clause as IR values: its variables (fresh IR names), the ghosts its `ite`,
  * `div`, `mod`, `abs` and Booleans-as-values need, and the values of its applications' arguments. */
function clauseTerms(clause: Clause, b: TermBuilder): ClauseTerms {
  return new ClauseTerms(clause, b);
}

type Atom = Extract<SExpr, { kind: 'atom' }>;

class ClauseTerms {
  readonly vars = new Map<string, { ir: string; sort: ChcSort }>();
  readonly ghosts: Ghost[] = [];
  private readonly ghostByKey = new Map<string, string>();
  private readonly memo = new Map<Scoped, Value>();

  constructor(private readonly clause: Clause, private readonly b: TermBuilder) {}

  /** The arguments of an application as integers (a Bool as 0/1), each of its predicate's sort. */
  argumentValues(app: PredicateApp): Linear[] {
    return app.args.map((arg, k) => {
      const v = this.lower(arg, 0);
      const sort = app.predicate.sorts[k]!;
      if ((v.kind === 'int') !== (sort === 'Int')) throw syntaxError(`argument ${k + 1} of '${app.predicate.name}' must be ${sort}`, arg.expr.pos);
      return v.kind === 'int' ? v.e : this.asInt(v.f);
    });
  }

  /** The constraint's conjuncts. */
  constraintConjuncts(): Formula[] {
    const conjuncts: Formula[] = [];
    for (const c of this.clause.constraint) {
      const v = this.lower(c, 0);
      if (v.kind !== 'bool') throw syntaxError('a constraint must be a Bool term', c.expr.pos);
      conjuncts.push(...(v.f.kind === 'and' ? v.f.args : [v.f]));
    }
    return conjuncts;
  }

  irVar(name: string): { ir: string; sort: ChcSort } | undefined {
    let v = this.vars.get(name);
    if (v) return v;
    const declared = this.clause.vars.find((w) => w.name === name);
    if (!declared) return undefined;
    v = { ir: this.b.names.fresh(`c${this.clause.index + 1}_${name}`), sort: declared.sort };
    this.b.locals.push(v.ir);
    if (declared.sort === 'Bool') this.b.booleans.add(v.ir);
    this.vars.set(name, v);
    return v;
  }

  ghost(key: string | null, def: (g: string) => Formula, bool = false): string {
    const known = key !== null ? this.ghostByKey.get(key) : undefined;
    if (known) return known;
    const name = this.b.names.fresh(`c${this.clause.index + 1}_t`);
    this.b.locals.push(name);
    if (bool) this.b.booleans.add(name);
    this.ghosts.push({ name, def: def(name) });
    if (key !== null) this.ghostByKey.set(key, name);
    return name;
  }

  /** A Boolean that is a constant or a Bool variable, as the integer 0 or 1 it holds; else null. */
  plainBool(f: Formula): Linear | null {
    if (f.kind === 'true') return L.constant(1n);
    if (f.kind === 'false') return L.constant(0n);
    if (f.kind === 'atom' && f.rel === '>=' && f.expr.constant === -1n && f.expr.coeffs.size === 1) {
      const [[v, c]] = [...f.expr.coeffs];
      if (c === 1n && this.b.booleans.has(v!)) return L.variable(v!);
    }
    return null;
  }

  /** A Boolean as the integer 0 or 1: its variable, or a ghost pinned to its value. */
  asInt(f: Formula): Linear {
    return this.plainBool(f) ?? L.variable(this.ghost(null, (g) => F.or(F.and(F.eqZero(L.addConstant(L.variable(g), -1n)), f), F.and(F.eqZero(L.variable(g)), F.not(f))), true));
  }

  lower(s: Scoped, depth: number): Value {
    if (depth > MAX_TERM_DEPTH) throw unsupported(`terms nested more than ${MAX_TERM_DEPTH} deep`, s.expr.pos);
    let { expr: e, scope } = s;
    // let chains without recursion
    while (headOf(e) === 'let' && e.kind === 'list') {
      scope = letScope(e, scope);
      e = e.items[2]!;
    }
    if (e.kind === 'string') throw unsupported('string literals', e.pos);
    if (e.kind === 'atom') return this.lowerAtom(e, scope, depth);
    const op = headOf(e);
    if (op === null) throw unsupported('an application of a non-symbol', e.pos);
    return new Application(this, e, op, scope, depth).value();
  }

  private lowerAtom(e: Atom, scope: LetScope | null, depth: number): Value {
    const bound = lookupLet(scope, e.text);
    if (bound) {
      let v = this.memo.get(bound);
      if (!v) this.memo.set(bound, (v = this.lower(bound, depth + 1)));
      return v;
    }
    const v = this.irVar(e.text);
    if (v) return v.sort === 'Int' ? { kind: 'int', e: L.variable(v.ir) } : { kind: 'bool', f: boolVar(v.ir) };
    if (!e.quoted) {
      if (/^[0-9]+$/.test(e.text)) return { kind: 'int', e: L.constant(BigInt(e.text)) };
      if (e.text === 'true') return { kind: 'bool', f: F.TRUE };
      if (e.text === 'false') return { kind: 'bool', f: F.FALSE };
      if (/^[0-9]+\.[0-9]*$/.test(e.text)) throw unsupported(`decimal ${e.text} (real arithmetic; farkas reads linear integer arithmetic)`, e.pos);
      if (/^#[xb]/.test(e.text)) throw unsupported(`bit-vector literal ${e.text}`, e.pos);
    }
    if (this.b.predicates.has(e.text)) throw unsupported(`predicate '${e.text}' under a negation, a disjunction or inside a term (a Horn clause's body is a conjunction)`, e.pos);
    throw syntaxError(`unknown symbol '${e.text}'`, e.pos);
  }

  isPredicate(name: string): boolean {
    return this.b.predicates.has(name);
  }
}

const boolVar = (v: string): Formula => F.geqZero(L.addConstant(L.variable(v), -1n));

/** One application `(op args…)` of a clause's terms, lowered by the group of operators it belongs to. */
class Application {
  private readonly args: readonly SExpr[];

  constructor(private readonly t: ClauseTerms, private readonly e: Extract<SExpr, { kind: 'list' }>, private readonly op: string, private readonly scope: LetScope | null, private readonly depth: number) {
    this.args = e.items.slice(1);
  }

  value(): Value {
    const { op, e } = this;
    switch (op) {
      case 'and':
      case 'or':
        return this.connective(op);
      case 'not':
        return this.not();
      case '=>':
      case 'xor':
        return this.implication(op);
      case 'ite':
        return this.ite();
      case '=':
      case 'distinct':
        return this.equality(op);
      case '<=':
      case '<':
      case '>=':
      case '>':
        return this.comparison(op);
      case '+':
      case '-':
      case '*':
        return this.arithmetic(op);
      case 'div':
      case 'mod':
        return this.division(op);
      case 'abs':
        return this.abs();
      case '!':
        return this.sub(this.args[0]!);
      case 'forall':
      case 'exists':
        throw unsupported(`${op} inside a clause's constraint (quantifier alternation)`, e.pos);
      case 'select':
      case 'store':
        throw unsupported('arrays are outside linear integer arithmetic', e.pos);
      case '/':
      case 'to_real':
      case 'to_int':
        throw unsupported(`'${op}' (real arithmetic; farkas reads linear integer arithmetic)`, e.pos);
      default:
        if (this.t.isPredicate(op)) throw unsupported(`predicate '${op}' under a negation, a disjunction or inside a term (a Horn clause's body is a conjunction)`, e.pos);
        if (/^bv/.test(op) || op === '_' || op === 'concat' || op === 'extract') throw unsupported(`'${op}': bit-vectors are outside linear integer arithmetic`, e.pos);
        throw syntaxError(`unknown function '${op}'`, e.pos);
    }
  }

  private sub(x: SExpr): Value {
    return this.t.lower({ expr: x, scope: this.scope }, this.depth + 1);
  }

  private int(x: SExpr): Linear {
    const v = this.sub(x);
    if (v.kind !== 'int') throw syntaxError(`expected an Int term, found a Bool one`, x.pos);
    return v.e;
  }

  private bool(x: SExpr): Formula {
    const v = this.sub(x);
    if (v.kind !== 'bool') throw syntaxError(`expected a Bool term, found an Int one`, x.pos);
    return v.f;
  }

  private arity(n: number, atLeast = false): void {
    const { args, op, e } = this;
    if (atLeast ? args.length < n : args.length !== n) throw syntaxError(`'${op}' takes ${atLeast ? 'at least ' : ''}${n} argument(s), given ${args.length}`, e.pos);
  }

  private connective(op: 'and' | 'or'): Value {
    // Nested chains of the same connective are flattened without recursion.
    const stack = [...this.args].reverse().map((x) => ({ x, scope: this.scope }));
    const parts: Formula[] = [];
    while (stack.length > 0) {
      const { x, scope: sc } = stack.pop()!;
      if (headOf(x) === op && x.kind === 'list') {
        for (let k = x.items.length - 1; k >= 1; k--) stack.push({ x: x.items[k]!, scope: sc });
        continue;
      }
      const v = this.t.lower({ expr: x, scope: sc }, this.depth + 1);
      if (v.kind !== 'bool') throw syntaxError('expected a Bool term, found an Int one', x.pos);
      parts.push(v.f);
    }
    return { kind: 'bool', f: op === 'and' ? F.and(...parts) : F.or(...parts) };
  }

  private not(): Value {
    this.arity(1);
    // not chains without recursion
    let x = this.args[0]!;
    let negated = true;
    while (headOf(x) === 'not' && x.kind === 'list' && x.items.length === 2) {
      x = x.items[1]!;
      negated = !negated;
    }
    const f = this.bool(x);
    return { kind: 'bool', f: negated ? F.not(f) : f };
  }

  private implication(op: '=>' | 'xor'): Value {
    const { args } = this;
    this.arity(2, true);
    if (op === '=>') {
      let f = this.bool(args[args.length - 1]!);
      for (let k = args.length - 2; k >= 0; k--) f = F.implies(this.bool(args[k]!), f);
      return { kind: 'bool', f };
    }
    let f = this.bool(args[0]!);
    for (const x of args.slice(1)) {
      const g = this.bool(x);
      f = F.or(F.and(f, F.not(g)), F.and(F.not(f), g));
    }
    return { kind: 'bool', f };
  }

  private ite(): Value {
    const { args } = this;
    this.arity(3);
    const c = this.bool(args[0]!);
    const t = this.sub(args[1]!);
    const el = this.sub(args[2]!);
    if (t.kind !== el.kind) throw syntaxError("'ite' branches of different sorts", this.e.pos);
    if (t.kind === 'bool' && el.kind === 'bool') return { kind: 'bool', f: F.or(F.and(c, t.f), F.and(F.not(c), el.f)) };
    const te = (t as { e: Linear }).e;
    const ee = (el as { e: Linear }).e;
    const g = this.t.ghost(null, (g) => F.or(F.and(c, F.eqZero(L.sub(L.variable(g), te))), F.and(F.not(c), F.eqZero(L.sub(L.variable(g), ee)))));
    return { kind: 'int', e: L.variable(g) };
  }

  private equality(op: '=' | 'distinct'): Value {
    this.arity(2, true);
    const vals = this.args.map((x) => this.sub(x));
    const kind = vals[0]!.kind;
    if (vals.some((v) => v.kind !== kind)) throw syntaxError(`'${op}' of terms of different sorts`, this.e.pos);
    const plainBool = (f: Formula) => this.t.plainBool(f);
    const asInt = (f: Formula) => this.t.asInt(f);
    const equal = (a: Value, c: Value): Formula => {
      if (a.kind === 'int' && c.kind === 'int') return F.eqZero(L.sub(a.e, c.e));
      const fa = (a as { f: Formula }).f;
      const fc = (c as { f: Formula }).f;
      const ia = plainBool(fa);
      const ic = plainBool(fc);
      if (ia && ic) return F.eqZero(L.sub(ia, ic));
      // b = φ for a Boolean variable b: b is φ's value, a ghost a run computes.
      if (ia) return F.eqZero(L.sub(ia, asInt(fc)));
      if (ic) return F.eqZero(L.sub(asInt(fa), ic));
      return F.or(F.and(fa, fc), F.and(F.not(fa), F.not(fc)));
    };
    const parts: Formula[] = [];
    if (op === '=') for (let k = 1; k < vals.length; k++) parts.push(equal(vals[k - 1]!, vals[k]!));
    else for (let i = 0; i < vals.length; i++) for (let j = i + 1; j < vals.length; j++) parts.push(F.not(equal(vals[i]!, vals[j]!)));
    return { kind: 'bool', f: F.and(...parts) };
  }

  private comparison(op: '<=' | '<' | '>=' | '>'): Value {
    this.arity(2, true);
    const vals = this.args.map((x) => this.int(x));
    const parts: Formula[] = [];
    for (let k = 1; k < vals.length; k++) parts.push(F.compare(vals[k - 1]!, op, vals[k]!));
    return { kind: 'bool', f: F.and(...parts) };
  }

  private arithmetic(op: '+' | '-' | '*'): Value {
    this.arity(1, true);
    const vals = this.args.map((x) => this.int(x));
    if (op === '+') return { kind: 'int', e: vals.reduce((a, c) => L.add(a, c)) };
    if (op === '-') {
      if (vals.length === 1) return { kind: 'int', e: L.negate(vals[0]!) };
      return { kind: 'int', e: vals.slice(1).reduce((a, c) => L.sub(a, c), vals[0]!) };
    }
    let product: Linear = L.constant(1n);
    for (const v of vals) {
      if (L.isConstant(v)) product = L.scale(product, v.constant);
      else if (L.isConstant(product)) product = L.scale(v, product.constant);
      else throw unsupported('a product of two non-constant terms (nonlinear arithmetic; farkas reads linear integer arithmetic)', this.e.pos);
    }
    return { kind: 'int', e: product };
  }

  private division(op: 'div' | 'mod'): Value {
    const { args } = this;
    this.arity(2);
    const x = this.int(args[0]!);
    const k = this.int(args[1]!);
    if (!L.isConstant(k)) throw unsupported(`'${op}' by a non-constant term (nonlinear arithmetic)`, args[1]!.pos);
    if (k.constant === 0n) throw unsupported(`'${op}' by zero`, args[1]!.pos);
    const m = k.constant;
    const abs = m < 0n ? -m : m;
    // SMT-LIB's div and mod are Euclidean: x = m*q + r with 0 <= r < |m|.
    const q = this.t.ghost(`q ${L.key(x)} ${m}`, (g) => {
      const r = L.sub(x, L.variable(g, m));
      return F.and(F.geqZero(r), F.geqZero(L.addConstant(L.negate(r), abs - 1n)));
    });
    return { kind: 'int', e: op === 'div' ? L.variable(q) : L.sub(x, L.variable(q, m)) };
  }

  private abs(): Value {
    this.arity(1);
    const x = this.int(this.args[0]!);
    const g = this.t.ghost(`abs ${L.key(x)}`, (g) => F.or(F.and(F.geqZero(x), F.eqZero(L.sub(L.variable(g), x))), F.and(F.geqZero(L.addConstant(L.negate(x), -1n)), F.eqZero(L.add(L.variable(g), x)))));
    return { kind: 'int', e: L.variable(g) };
  }
}

function lowerClause(clause: Clause, start: number, b: Builder): ClauseEdges {
  const pos = clause.pos;
  const terms = clauseTerms(clause, b);
  const { vars, ghosts } = terms;
  // The conjuncts to establish, in order: the body's arguments equal the source predicate's
  // variables, then the constraint.
  const conjuncts: Formula[] = [];
  const source = clause.body[0];
  if (source) {
    const at = b.predicates.get(source.predicate.name)!;
    terms.argumentValues(source).forEach((value, k) => conjuncts.push(F.eqZero(L.sub(value, L.variable(at.vars[k]!)))));
  }
  conjuncts.push(...terms.constraintConjuncts());
  const headValues: Linear[] = clause.head ? terms.argumentValues(clause.head) : [];

  // Schedule: assign what an equality defines, compute ghosts once their inputs are known, choose
  // (havoc) the rest; assume each conjunct as soon as its variables are known.
  const stmts: Stmt[] = [];
  const known = new Set<string>(source ? b.predicates.get(source.predicate.name)!.vars : []);
  const clauseVars = [...vars.values()].map((v) => v.ir);
  const isKnown = (f: Formula): boolean => [...F.variablesOf(f)].every((v) => known.has(v));
  let pending = [...conjuncts];
  let pendingGhosts = [...ghosts];
  // What each assigned clause variable stands for over the variables before the clause (its
  // predicate's arguments, the chosen values, the ghosts): the conditions are stated over those, so
  // that a guard reads `x >= 5000` of the predicate's `x` (the observed-bounds search splits its
  // candidates by such guards), not of a copy.
  const definitions = new Map<string, Linear>();
  const flush = (): void => {
    const ready = pending.filter(isKnown);
    pending = pending.filter((f) => !isKnown(f));
    for (const f of ready) stmts.push({ kind: 'assume', cond: F.substitute(f, definitions) });
  };
  const choose = (v: string): void => {
    stmts.push({ kind: 'havoc', target: v, ...(b.booleans.has(v) ? { range: { lo: 0n, hi: 1n } } : {}) });
    if (b.booleans.has(v)) stmts.push({ kind: 'assume', cond: F.inRange(L.variable(v), { lo: 0n, hi: 1n }) });
    known.add(v);
  };
  for (;;) {
    flush();
    const definition = pending.findIndex((f) => definedVariable(f, known, clauseVars) !== null);
    if (definition >= 0) {
      const f = pending[definition]! as Extract<Formula, { kind: 'atom' }>;
      const v = definedVariable(f, known, clauseVars)!;
      const c = L.coefficientOf(f.expr, v);
      // c·v + rest == 0 with c = ±1: v := -rest/c
      const rest = L.fromTerms([...f.expr.coeffs].filter(([w]) => w !== v), f.expr.constant);
      const expr = c === 1n ? L.negate(rest) : rest;
      stmts.push({ kind: 'assign', target: v, expr });
      definitions.set(v, L.substitute(expr, definitions));
      if (b.booleans.has(v)) stmts.push({ kind: 'assume', cond: F.inRange(L.variable(v), { lo: 0n, hi: 1n }) });
      known.add(v);
      pending.splice(definition, 1);
      continue;
    }
    const readyGhost = pendingGhosts.find((g) => [...F.variablesOf(g.def)].every((v) => v === g.name || known.has(v)));
    const nextVar = clauseVars.find((v) => !known.has(v));
    const g = readyGhost ?? (nextVar === undefined ? pendingGhosts[0] : undefined);
    if (g) {
      stmts.push({ kind: 'havoc', target: g.name, ghost: true });
      known.add(g.name);
      pending.unshift(g.def);
      pendingGhosts = pendingGhosts.filter((h) => h !== g);
      continue;
    }
    if (nextVar !== undefined) {
      choose(nextVar);
      continue;
    }
    break;
  }
  flush();
  if (pending.length > 0) throw new Error('internal: a clause conjunct over unknown variables');
  // The head's arguments, then on to its location (or the failing assertion of a query).
  let at = start;
  const step = (stmt: Stmt): void => {
    const next = b.newLocation(`clause ${clause.index + 1}`, undefined);
    b.addEdge(at, next, stmt, pos);
    at = next;
  };
  for (const s of stmts) step(s);
  let last: Edge;
  if (clause.head) {
    const target = b.predicates.get(clause.head.predicate.name)!;
    const assigns = headValues.map((value, k) => ({ kind: 'assign' as const, target: target.vars[k]!, expr: value }));
    // Head arguments read clause variables only, never another argument: assign in order.
    for (const a of assigns.slice(0, -1)) step(a);
    last = b.addEdge(at, target.location, assigns.length > 0 ? assigns[assigns.length - 1]! : { kind: 'skip' }, pos);
  } else {
    last = b.addEdge(at, b.exit, { kind: 'assert', cond: F.FALSE }, pos);
  }
  return { clause, lastEdge: last.id, vars: new Map([...vars].map(([name, v]) => [name, v.ir])) };
}

/** The clause variable an equality defines: `c·v + rest == 0`, c = ±1, v not yet known, rest known. */
function definedVariable(f: Formula, known: ReadonlySet<string>, clauseVars: readonly string[]): string | null {
  if (f.kind !== 'atom' || f.rel !== '==') return null;
  const unknown = [...f.expr.coeffs.keys()].filter((v) => !known.has(v));
  if (unknown.length !== 1) return null;
  const v = unknown[0]!;
  const c = f.expr.coeffs.get(v)!;
  return (c === 1n || c === -1n) && clauseVars.includes(v) ? v : null;
}
