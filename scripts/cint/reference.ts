// The reference evaluator of the gcc-differential tester: runs a generated program (scripts/cint/ast.ts)
// with exact C integer semantics in bigint arithmetic, and stops at the first undefined behaviour
// (signed overflow, a bad shift). It is not the oracle — gcc is — but it checks the tester itself:
// where gcc and the reference disagree, the generator, the printer or the batch runner is wrong (or
// gcc missed undefined behaviour), not farkas, and compare.ts reports that as 'tester-error'. It also
// tells whether a run ever needed C's wrap-around (a conversion that changed a value, unsigned
// arithmetic modulo 2^n): on runs that never did, mathematical integers give the same results.
import type { CProgram, Decl, Expr, Stmt } from './ast.js';
import { typeOf } from './ast.js';
import { bits, commonType, convert, inRange, isSigned, promote, range, type DataModel, type IntType } from './types.js';

export type UbKind = 'overflow' | 'shift';

export type ReferenceResult =
  | {
      readonly kind: 'exit';
      readonly globals: ReadonlyMap<string, bigint>;
      readonly wrapped: boolean;
      /** Every variable in scope at f's end (globals, parameters, nondet inputs, locals). */
      readonly variables: ReadonlyMap<string, bigint>;
      /** Whether the assertion of a verification task holds at f's end (null: the program has none). */
      readonly assertion: boolean | null;
    }
  | { readonly kind: 'ub'; readonly ub: UbKind; readonly line: number; readonly message: string; readonly wrapped: boolean }
  /** The evaluator met something the generator should never produce (a tester bug). */
  | { readonly kind: 'error'; readonly message: string };

class Undefined extends Error {
  constructor(readonly ub: UbKind, readonly line: number, message: string) {
    super(message);
  }
}

interface Value {
  readonly v: bigint;
  readonly t: IntType;
}

class Evaluator {
  private readonly values = new Map<string, bigint>();
  private line = 0;
  wrapped = false;

  constructor(private readonly p: CProgram, private readonly lineOf: ReadonlyMap<Stmt | Decl, number>) {}

  private get dm(): DataModel {
    return this.p.dataModel;
  }

  private typeOfVar(name: string): IntType {
    return this.p.types.get(name)!;
  }

  /** Converts, noting when the value changes (except to _Bool, which mathematical integers also model). */
  private conv(v: bigint, t: IntType): bigint {
    const r = convert(v, t, this.dm);
    if (r !== v && t !== 'bool') this.wrapped = true;
    return r;
  }

  /** The result of an arithmetic operation in type t: undefined if t is signed and v out of range. */
  private arith(v: bigint, t: IntType, what: string): bigint {
    if (isSigned(t)) {
      if (!inRange(v, t, this.dm)) throw new Undefined('overflow', this.line, `signed integer overflow: ${what} in type ${t}`);
      return v;
    }
    return this.conv(v, t);
  }

  private read(name: string): bigint {
    const v = this.values.get(name);
    if (v === undefined) throw new Error(`cint reference: ${name} read before it was set`);
    return v;
  }

  private incdec(name: string, op: '++' | '--'): { old: bigint; now: bigint } {
    const t = this.typeOfVar(name);
    const old = this.read(name);
    const pt = promote(t);
    const raw = op === '++' ? old + 1n : old - 1n;
    const now = this.conv(this.arith(raw, pt, `${old} ${op === '++' ? '+' : '-'} 1`), t);
    this.values.set(name, now);
    return { old, now };
  }

  /** a op b on values already converted to their common type t (C's `/` truncates, as bigint's does). */
  private binaryArith(op: '+' | '-' | '*' | '/' | '%', a: bigint, b: bigint, t: IntType): bigint {
    switch (op) {
      case '+': return this.arith(a + b, t, `${a} + ${b}`);
      case '-': return this.arith(a - b, t, `${a} - ${b}`);
      case '*': return this.arith(a * b, t, `${a} * ${b}`);
      case '/': case '%': {
        if (b === 0n) throw new Error('cint reference: division by zero (the generator only divides by non-zero constants)');
        // a % b is undefined exactly when a / b is (C11 6.5.5p6).
        const q = this.arith(a / b, t, `${a} / ${b}`);
        return op === '/' ? q : this.arith(a - q * b, t, `${a} % ${b}`);
      }
    }
  }

  private shift(op: '<<' | '>>', a: Value, n: bigint): bigint {
    const t = promote(a.t);
    const v = convert(a.v, t, this.dm);
    const w = BigInt(bits(t, this.dm));
    if (n < 0n || n >= w) throw new Undefined('shift', this.line, `shift count ${n} out of range for ${t}`);
    if (op === '>>') return v >> n; // arithmetic for negative values (implementation-defined; gcc's)
    if (!isSigned(t)) return this.conv(v << n, t);
    if (v < 0n) throw new Undefined('shift', this.line, `left shift of negative value ${v}`);
    if (!inRange(v << n, t, this.dm)) throw new Undefined('shift', this.line, `left shift of ${v} by ${n} places in type ${t}`);
    return v << n;
  }

  eval(e: Expr): Value {
    const t = typeOf(e, this.p.types, this.dm);
    switch (e.kind) {
      case 'var': return { v: this.read(e.name), t };
      case 'lit': return { v: e.value, t };
      case 'incdec': {
        const { old, now } = this.incdec(e.name, e.op);
        return { v: e.prefix ? now : old, t };
      }
      case 'cast': return { v: this.conv(this.eval(e.arg).v, t), t };
      case 'unary': {
        const a = this.eval(e.arg);
        if (e.op === '!') return { v: a.v === 0n ? 1n : 0n, t };
        const v = this.conv(a.v, t);
        if (e.op === '-') return { v: this.arith(-v, t, `-(${v})`), t };
        return { v: isSigned(t) ? -v - 1n : range(t, this.dm).hi - v, t };
      }
      case 'cond': {
        const c = this.eval(e.cond);
        return { v: this.conv(this.eval(c.v !== 0n ? e.then : e.else).v, t), t };
      }
      case 'binary': {
        if (e.op === '&&' || e.op === '||') {
          const l = this.eval(e.left).v !== 0n;
          if (e.op === '&&' ? !l : l) return { v: l ? 1n : 0n, t };
          return { v: this.eval(e.right).v !== 0n ? 1n : 0n, t };
        }
        const l = this.eval(e.left);
        const r = this.eval(e.right);
        if (e.op === '<<' || e.op === '>>') return { v: this.shift(e.op, l, convert(r.v, promote(r.t), this.dm)), t };
        const ct = commonType(l.t, r.t, this.dm);
        const a = this.conv(l.v, ct);
        const b = this.conv(r.v, ct);
        switch (e.op) {
          case '<': return { v: a < b ? 1n : 0n, t };
          case '<=': return { v: a <= b ? 1n : 0n, t };
          case '>': return { v: a > b ? 1n : 0n, t };
          case '>=': return { v: a >= b ? 1n : 0n, t };
          case '==': return { v: a === b ? 1n : 0n, t };
          case '!=': return { v: a !== b ? 1n : 0n, t };
          default: return { v: this.binaryArith(e.op, a, b, ct), t };
        }
      }
    }
  }

  private exec(s: Stmt): void {
    this.line = this.lineOf.get(s) ?? 0;
    switch (s.kind) {
      case 'incdec':
        this.incdec(s.name, s.op);
        return;
      case 'assign': {
        const t = this.typeOfVar(s.target);
        const r = this.eval(s.value);
        if (s.op === '=') {
          this.values.set(s.target, this.conv(r.v, t));
          return;
        }
        const cur: Value = { v: this.read(s.target), t };
        let v: bigint;
        if (s.op === '<<=' || s.op === '>>=') {
          v = this.shift(s.op === '<<=' ? '<<' : '>>', cur, convert(r.v, promote(r.t), this.dm));
        } else {
          const ct = commonType(t, r.t, this.dm);
          const op = s.op.slice(0, 1) as '+' | '-' | '*' | '/' | '%';
          v = this.binaryArith(op, this.conv(cur.v, ct), this.conv(r.v, ct), ct);
        }
        this.values.set(s.target, this.conv(v, t));
        return;
      }
      case 'if': {
        const c = this.eval(s.cond).v !== 0n;
        const line = this.line;
        for (const b of (c ? s.then : s.else) ?? []) this.exec(b);
        this.line = line;
        return;
      }
      case 'for':
        for (let i = 0; i < s.bound; i++) {
          this.values.set(s.var, BigInt(i));
          for (const b of s.body) this.exec(b);
        }
        this.values.delete(s.var);
        return;
    }
  }

  run(): ReferenceResult {
    let assertion: boolean | null;
    try {
      for (const g of this.p.globals) {
        this.line = this.lineOf.get(g) ?? 0;
        this.values.set(g.name, g.init ? this.conv(this.eval(g.init).v, g.type) : 0n);
      }
      for (const q of [...this.p.params, ...(this.p.nondets ?? [])]) this.values.set(q.name, this.p.inputs.get(q.name)!);
      for (const l of this.p.locals) {
        this.line = this.lineOf.get(l) ?? 0;
        this.values.set(l.name, this.conv(this.eval(l.init!).v, l.type));
      }
      for (const s of this.p.body) this.exec(s);
      assertion = this.p.assertion ? this.eval(this.p.assertion).v !== 0n : null;
    } catch (e) {
      if (e instanceof Undefined) return { kind: 'ub', ub: e.ub, line: e.line, message: e.message, wrapped: this.wrapped };
      return { kind: 'error', message: e instanceof Error ? e.message : String(e) };
    }
    const globals = new Map<string, bigint>();
    for (const g of this.p.globals) globals.set(g.name, this.values.get(g.name)!);
    return { kind: 'exit', globals, wrapped: this.wrapped, variables: new Map(this.values), assertion };
  }

  /** The value of e with the variables at the given values. */
  evalIn(e: Expr, values: ReadonlyMap<string, bigint>): bigint {
    for (const [k, v] of values) this.values.set(k, v);
    return this.eval(e).v;
  }
}

/** Runs f of the program on its inputs. `lineOf` is the printer's (print.ts), for the line of a UB. */
export function evaluate(p: CProgram, lineOf: ReadonlyMap<Stmt | Decl, number>): ReferenceResult {
  return new Evaluator(p, lineOf).run();
}

/** The value of an expression without side effects or undefined behaviour (a verification task's
 * assertion) with the variables at the given values, e.g. a run's `variables`. */
export function evaluateExpr(p: CProgram, e: Expr, values: ReadonlyMap<string, bigint>): bigint {
  return new Evaluator(p, new Map()).evalIn(e, values);
}
