// A small fluent builder for IR programs, so tests (and tools) can write CFGs without the C front end.
// Structured statements (if / while / choice / return) lay out locations and assume-guarded edges the
// way the front end does: a two-way branch is a location with `assume(c)` and `assume(!c)` edges, a loop
// head is a `loopHeader` location that the body's last edge jumps back to, `if (*)` / `while (*)` are
// `choice` locations whose smaller-id edge is the then-branch / loop body.
// Expressions may be given as text (`'2*x - y + 3'`, `'x < n && !(y == 0)'`) or as Linear / Formula.
import type { Edge, GlobalVar, Location, Procedure, Program, SourcePos, Stmt } from '../cfg.js';
import * as F from '../formula.js';
import type { Formula } from '../formula.js';
import * as L from '../linear.js';
import type { Linear } from '../linear.js';

// ---------------------------------------------------------------------------------------------
// Text syntax for linear expressions and conditions (a tiny C-like grammar, for tests).
// expr  := term (('+' | '-') term)*
// term  := factor ('*' factor)*        -- at least one side of '*' must be constant
// factor:= INT | IDENT | '-' factor | '(' expr ')'
// cond  := conj ('||' conj)* ; conj := neg ('&&' neg)* ; neg := '!' neg | '(' cond ')' | expr REL expr | true | false

type Token = { kind: 'int'; value: bigint } | { kind: 'ident'; name: string } | { kind: 'op'; op: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*)|(&&|\|\||<=|>=|==|!=|[-+*()<>!]))/y;
  let i = 0;
  while (i < text.length) {
    if (/^\s*$/.test(text.slice(i))) break;
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) throw new Error(`builder: cannot parse '${text}' at offset ${i}`);
    if (m[1] !== undefined) tokens.push({ kind: 'int', value: BigInt(m[1]) });
    else if (m[2] !== undefined) tokens.push({ kind: 'ident', name: m[2] });
    else tokens.push({ kind: 'op', op: m[3]! });
    i = re.lastIndex;
  }
  return tokens;
}

class TextParser {
  private i = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly text: string,
  ) {}

  private peekOp(): string | null {
    const t = this.tokens[this.i];
    return t && t.kind === 'op' ? t.op : null;
  }

  private fail(what: string): never {
    throw new Error(`builder: ${what} in '${this.text}'`);
  }

  private expectOp(op: string): void {
    if (this.peekOp() !== op) this.fail(`expected '${op}'`);
    this.i++;
  }

  done(): void {
    if (this.i !== this.tokens.length) this.fail('trailing input');
  }

  expr(): Linear {
    let e = this.term();
    for (;;) {
      const op = this.peekOp();
      if (op !== '+' && op !== '-') return e;
      this.i++;
      const t = this.term();
      e = op === '+' ? L.add(e, t) : L.sub(e, t);
    }
  }

  private term(): Linear {
    let e = this.factor();
    while (this.peekOp() === '*') {
      this.i++;
      const f = this.factor();
      if (L.isConstant(e)) e = L.scale(f, e.constant);
      else if (L.isConstant(f)) e = L.scale(e, f.constant);
      else this.fail('non-linear product');
    }
    return e;
  }

  private factor(): Linear {
    const t = this.tokens[this.i];
    if (!t) this.fail('unexpected end');
    this.i++;
    if (t.kind === 'int') return L.constant(t.value);
    if (t.kind === 'ident') return L.variable(t.name);
    if (t.op === '-') return L.negate(this.factor());
    if (t.op === '(') {
      const e = this.expr();
      this.expectOp(')');
      return e;
    }
    return this.fail(`unexpected '${t.op}'`);
  }

  cond(): Formula {
    const parts = [this.conj()];
    while (this.peekOp() === '||') {
      this.i++;
      parts.push(this.conj());
    }
    return F.or(...parts);
  }

  private conj(): Formula {
    const parts = [this.neg()];
    while (this.peekOp() === '&&') {
      this.i++;
      parts.push(this.neg());
    }
    return F.and(...parts);
  }

  private neg(): Formula {
    const t = this.tokens[this.i];
    if (t?.kind === 'op' && t.op === '!') {
      this.i++;
      return F.not(this.neg());
    }
    if (t?.kind === 'ident' && (t.name === 'true' || t.name === 'false')) {
      this.i++;
      return t.name === 'true' ? F.TRUE : F.FALSE;
    }
    if (t?.kind === 'op' && t.op === '(') {
      // Either a parenthesised condition or the start of a parenthesised expression: try the former.
      const save = this.i;
      try {
        this.i++;
        const c = this.cond();
        this.expectOp(')');
        const next = this.peekOp();
        if (next === null || next === '&&' || next === '||' || next === ')') return c;
      } catch {
        // fall through: it is an arithmetic operand
      }
      this.i = save;
    }
    const lhs = this.expr();
    const op = this.peekOp();
    if (op !== '<' && op !== '<=' && op !== '>' && op !== '>=' && op !== '==' && op !== '!=') this.fail('expected a comparison');
    this.i++;
    return F.compare(lhs, op, this.expr());
  }
}

/** Parses a linear expression such as `2*x - (y + 3)`. */
export function lin(text: string): Linear {
  const p = new TextParser(tokenize(text), text);
  const e = p.expr();
  p.done();
  return e;
}

/** Parses a condition such as `x < n && !(y == 0) || true`. */
export function cond(text: string): Formula {
  const p = new TextParser(tokenize(text), text);
  const c = p.cond();
  p.done();
  return c;
}

export type ExprLike = string | bigint | number | Linear;
export type CondLike = string | Formula;

export function toLinear(e: ExprLike): Linear {
  if (typeof e === 'string') return lin(e);
  if (typeof e === 'bigint' || typeof e === 'number') return L.constant(e);
  return e;
}

export function toFormula(c: CondLike): Formula {
  return typeof c === 'string' ? cond(c) : c;
}

// ---------------------------------------------------------------------------------------------
// Statement constructors.

export const stmt = {
  assign: (target: string, expr: ExprLike): Stmt => ({ kind: 'assign', target, expr: toLinear(expr) }),
  havoc: (target: string, range?: { lo: bigint; hi: bigint }): Stmt =>
    range ? { kind: 'havoc', target, range } : { kind: 'havoc', target },
  assume: (c: CondLike): Stmt => ({ kind: 'assume', cond: toFormula(c) }),
  assert: (c: CondLike): Stmt => ({ kind: 'assert', cond: toFormula(c) }),
  call: (target: string | null, callee: string, args: readonly ExprLike[]): Stmt => ({
    kind: 'call',
    target,
    callee,
    args: args.map(toLinear),
  }),
  skip: (): Stmt => ({ kind: 'skip' }),
};

function stmtVariables(s: Stmt): string[] {
  switch (s.kind) {
    case 'assign': return [s.target, ...L.variablesOf(s.expr)];
    case 'havoc': return [s.target];
    case 'assume':
    case 'assert': return [...F.variablesOf(s.cond)];
    case 'call': return [...(s.target ? [s.target] : []), ...s.args.flatMap(L.variablesOf)];
    case 'skip': return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Procedures.

export interface ProcedureSpec {
  readonly params?: readonly string[];
  /** Extra locals; every other variable a statement mentions that is neither a parameter nor a
   * global becomes a local automatically. */
  readonly locals?: readonly string[];
  /** true: the procedure returns a value held in `retval`; a string: the return variable's name. */
  readonly returns?: boolean | string;
  readonly line?: number;
}

export const DEFAULT_RETURN_VAR = 'retval';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export class ProcedureBuilder {
  readonly params: readonly string[];
  readonly returnVar: string | null;
  readonly entry = 0;
  readonly exit = 1;
  private readonly locations: Mutable<Location>[] = [];
  private readonly edges: Edge[] = [];
  private readonly extraLocals: readonly string[];
  /** Where the next structured statement starts; null after a `return` (dead code follows). */
  private cursor: number | null = 0;
  private nextLine: number;

  constructor(
    readonly name: string,
    spec: ProcedureSpec = {},
    readonly file = 'test.c',
    private readonly globals: ReadonlySet<string> = new Set(),
  ) {
    this.params = spec.params ?? [];
    this.returnVar = spec.returns === true ? DEFAULT_RETURN_VAR : typeof spec.returns === 'string' ? spec.returns : null;
    this.extraLocals = spec.locals ?? [];
    this.nextLine = spec.line ?? 1;
    this.newLocation({ label: 'entry', line: this.nextLine });
    this.newLocation({ label: 'exit' });
  }

  // -- low level ------------------------------------------------------------------------------

  pos(line: number, col = 1): SourcePos {
    return { file: this.file, line, col };
  }

  newLocation(opts: { label?: string; loopHeader?: boolean; choice?: boolean; line?: number } = {}): number {
    const id = this.locations.length;
    const loc: Mutable<Location> = { id, loopHeader: opts.loopHeader ?? false };
    if (opts.label !== undefined) loc.label = opts.label;
    if (opts.choice) loc.choice = true;
    if (opts.line !== undefined) loc.pos = this.pos(opts.line);
    this.locations.push(loc);
    return id;
  }

  markLoopHeader(loc: number): this {
    this.locations[loc]!.loopHeader = true;
    return this;
  }

  markChoice(loc: number): this {
    this.locations[loc]!.choice = true;
    return this;
  }

  edge(from: number, to: number, s: Stmt, line: number = this.nextLine): number {
    const id = this.edges.length;
    this.edges.push({ id, from, to, stmt: s, pos: this.pos(line) });
    return id;
  }

  /** The location the next statement starts from (a fresh unreachable one after a `return`). */
  get current(): number {
    if (this.cursor === null) this.cursor = this.newLocation({ label: 'unreachable' });
    return this.cursor;
  }

  set current(loc: number) {
    this.cursor = loc;
  }

  /** For CFGs wired by hand: nothing falls through to the exit when the procedure is built. */
  close(): this {
    this.cursor = null;
    return this;
  }

  // -- structured statements -------------------------------------------------------------------

  /** Sets the source line of the next statement (lines otherwise count up by one per statement). */
  at(line: number): this {
    this.nextLine = line;
    return this;
  }

  private takeLine(): number {
    return this.nextLine++;
  }

  private simple(s: Stmt): this {
    const from = this.current;
    const line = this.takeLine();
    const to = this.newLocation({ line: this.nextLine });
    this.edge(from, to, s, line);
    this.cursor = to;
    return this;
  }

  assign(target: string, expr: ExprLike): this {
    return this.simple(stmt.assign(target, expr));
  }

  havoc(target: string, range?: { lo: bigint; hi: bigint }): this {
    return this.simple(stmt.havoc(target, range));
  }

  assume(c: CondLike): this {
    return this.simple(stmt.assume(c));
  }

  assert(c: CondLike): this {
    return this.simple(stmt.assert(c));
  }

  call(target: string | null, callee: string, args: readonly ExprLike[] = []): this {
    return this.simple(stmt.call(target, callee, args));
  }

  skip(): this {
    return this.simple(stmt.skip());
  }

  /** `return e;` (or `return;`): assigns the return variable and jumps to the exit. */
  return(expr?: ExprLike): this {
    const from = this.current;
    const line = this.takeLine();
    if (expr !== undefined) {
      if (this.returnVar === null) throw new Error(`builder: ${this.name} returns no value`);
      this.edge(from, this.exit, stmt.assign(this.returnVar, expr), line);
    } else {
      this.edge(from, this.exit, stmt.skip(), line);
    }
    this.cursor = null;
    return this;
  }

  /** `if (c) then else otherwise`: two mutually exclusive assume edges. */
  if(c: CondLike, then: (b: this) => void, otherwise?: (b: this) => void): this {
    const f = toFormula(c);
    return this.branch(f, then, otherwise);
  }

  /** `if (*) then else otherwise`: a choice location; the then-edge gets the smaller id. */
  ifChoice(then: (b: this) => void, otherwise?: (b: this) => void): this {
    return this.branch(null, then, otherwise);
  }

  private branch(c: Formula | null, then: (b: this) => void, otherwise?: (b: this) => void): this {
    const from = this.current;
    const line = this.takeLine();
    if (c === null) this.markChoice(from);
    const thenStart = this.newLocation({ line: this.nextLine });
    const elseStart = this.newLocation();
    this.edge(from, thenStart, c === null ? stmt.skip() : stmt.assume(c), line);
    this.edge(from, elseStart, c === null ? stmt.skip() : stmt.assume(F.not(c)), line);
    this.cursor = thenStart;
    then(this);
    const thenEnd = this.cursor;
    this.cursor = elseStart;
    otherwise?.(this);
    const elseEnd = this.cursor;
    const join = this.newLocation({ line: this.nextLine });
    if (thenEnd !== null) this.edge(thenEnd, join, stmt.skip(), line);
    if (elseEnd !== null) this.edge(elseEnd, join, stmt.skip(), line);
    this.cursor = join;
    return this;
  }

  /** `while (c) body`: a loop-header location with an entering and an exiting assume edge. */
  while(c: CondLike, body: (b: this) => void): this {
    return this.loop(toFormula(c), body);
  }

  /** `while (*) body`: a loop header that is also a choice location; the body edge gets the smaller id. */
  whileChoice(body: (b: this) => void): this {
    return this.loop(null, body);
  }

  private loop(c: Formula | null, body: (b: this) => void): this {
    const before = this.current;
    const line = this.takeLine();
    const head = this.newLocation({ label: 'loop', loopHeader: true, choice: c === null, line });
    this.edge(before, head, stmt.skip(), line);
    const bodyStart = this.newLocation({ line: this.nextLine });
    this.edge(head, bodyStart, c === null ? stmt.skip() : stmt.assume(c), line);
    const after = this.newLocation({ label: 'after-loop' });
    this.edge(head, after, c === null ? stmt.skip() : stmt.assume(F.not(c)), line);
    this.cursor = bodyStart;
    body(this);
    if (this.cursor !== null) this.edge(this.cursor, head, stmt.skip(), line);
    this.cursor = after;
    return this;
  }

  build(): Procedure {
    if (this.cursor !== null) this.edge(this.cursor, this.exit, stmt.skip(), this.nextLine);
    this.cursor = null;
    const mentioned = new Set<string>(this.extraLocals);
    for (const e of this.edges) for (const v of stmtVariables(e.stmt)) mentioned.add(v);
    if (this.returnVar !== null) mentioned.add(this.returnVar);
    const locals = [...mentioned].filter((v) => !this.params.includes(v) && !this.globals.has(v));
    return {
      name: this.name,
      params: [...this.params],
      locals,
      returnVar: this.returnVar,
      entry: this.entry,
      exit: this.exit,
      locations: this.locations.map((l) => ({ ...l })),
      edges: [...this.edges],
      pos: this.pos(this.locations[0]!.pos?.line ?? 1),
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Programs.

export class ProgramBuilder {
  private readonly globals: GlobalVar[] = [];
  private readonly procedures = new Map<string, Procedure>();
  private entryName: string | null = null;

  constructor(readonly file = 'test.c') {}

  /** Declare globals before the procedures that use them (so they are not taken for locals). */
  global(name: string, init: bigint | number = 0n): this {
    this.globals.push({ name, init: BigInt(init) });
    return this;
  }

  procedure(name: string, spec: ProcedureSpec, body: (b: ProcedureBuilder) => void): this {
    const b = new ProcedureBuilder(name, spec, this.file, new Set(this.globals.map((g) => g.name)));
    body(b);
    this.procedures.set(name, b.build());
    return this;
  }

  /** Adds a procedure built by hand (e.g. with the low-level location/edge API). */
  add(proc: Procedure): this {
    this.procedures.set(proc.name, proc);
    return this;
  }

  entry(name: string): this {
    this.entryName = name;
    return this;
  }

  build(): Program {
    const names = [...this.procedures.keys()];
    const entry = this.entryName ?? (this.procedures.has('main') ? 'main' : names[names.length - 1]);
    if (entry === undefined) throw new Error('builder: a program needs at least one procedure');
    return { file: this.file, globals: [...this.globals], procedures: new Map(this.procedures), entry };
  }
}

/** Shorthand: `program(p => p.procedure('main', {}, b => b.assign('x', 1)))`. */
export function program(define: (p: ProgramBuilder) => void, file = 'test.c'): Program {
  const p = new ProgramBuilder(file);
  define(p);
  return p.build();
}
