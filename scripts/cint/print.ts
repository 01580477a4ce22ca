// The two texts of a generated program (scripts/cint/ast.ts): the farkas text, plain C as a user would
// write it, and the gcc text, the same program compiled natively with a main that calls f on the
// inputs and prints every global. Both put every statement on the same line, so a line number in a
// gcc (ubsan) message is the line farkas reports for the same statement; line 1 is a comment in the
// farkas text and the barrier macro in the gcc text.
//
// The gcc text differs from the program only in ways that keep its meaning:
//  - Opacity barriers. gcc folds expressions before the sanitizer instruments them, even at -O0, and
//    folding can remove a signed overflow: `(a + 1) - 1` becomes `a`, `(a + 1) > a` becomes 1, and
//    ubsan then reports nothing for a = INT_MAX. So every compound operand is wrapped in
//    `CINT_V(T, e)`, a statement expression storing e (of type T, its own type: no conversion) into a
//    volatile and reading it back; gcc cannot look through it, and each operation is checked as written.
//    Compound assignments are written out (`x = CINT_V(T, (x op e))`) for the same reason: gcc
//    computes `x op= e` in x's type when x is narrower than the operation, losing its overflow check.
//  - ILP32 on a 64-bit gcc (there is no -m32 multilib here): `long` is printed as `int` and
//    `unsigned long` as `unsigned int`, and a single `l`/`L` is dropped from literal suffixes (`ll`
//    stays). Under ILP32 long has the width and signedness of int, and what C computes on integers
//    depends only on the widths and signedness of the types involved, never on their names or ranks:
//    conversions and overflow obviously; the promotions only touch types narrower than int; and the
//    usual arithmetic conversions give, for operands of equal signedness, the wider type, and for a
//    signed and an unsigned operand, the signed type when it is strictly wider and otherwise the
//    unsigned type of the wider width (each of the three rank rules of C11 6.3.1.8 comes to that).
//    Literals keep their ILP32 type's width and signedness too: without the `l`, a value that fits in
//    32 bits gets int or unsigned int (as ILP32 long or unsigned long would be), and a larger one gets a
//    64-bit type of the same signedness in both (ILP32 long long, LP64 long), by the same suffix/base
//    lists of C11 6.4.4.1.
//  - Verification tasks (verify-task.ts): a nondet input's initialiser `__VERIFIER_nondet_T()` is
//    `(T)cint_nondet()`, which the harness (verify-gcc.ts) defines to return the run's next value;
//    `__VERIFIER_assert` keeps its name, and the harness defines it to print a marker, not to abort.
//    Both are declared where they are called (in a block, on the same line), so that the harness can
//    define them after the program without moving its lines.
import type { BinaryOp, CProgram, Decl, Expr, Literal, Stmt } from './ast.js';
import { isLiteralConstant, typeOf } from './ast.js';
import { isSigned, spell, type DataModel, type IntType } from './types.js';

export type Flavour = 'farkas' | 'gcc';

/** The gcc text's source of nondet values (verification tasks): the harness defines it, returning
 * the run's next value as an unsigned long long, which the cast brings back to the input's type (the
 * conversion modulo 2^n, as gcc defines it). */
export const NONDET_FUNCTION = 'cint_nondet';

/** The `__VERIFIER_nondet_<suffix>` of each type in the farkas text. */
const NONDET_SUFFIX: Record<IntType, string> = {
  bool: 'bool', char: 'char', schar: 'schar', uchar: 'uchar', short: 'short', ushort: 'ushort',
  int: 'int', uint: 'uint', long: 'long', ulong: 'ulong', llong: 'longlong', ullong: 'ulonglong',
};

export const BARRIER_MACRO = '#define CINT_V(T, e) ({ volatile T cint_v_ = (e); cint_v_; })';

export interface PrintOptions {
  readonly flavour: Flavour;
  /** Prepended to every global's and f's name (the gcc batch puts many programs in one file). */
  readonly prefix?: string;
}

export interface PrintedBody {
  /** The program from line 2 on (line 1 is the caller's: a comment, or the barrier macro). */
  readonly lines: readonly string[];
  /** The line (1-based, line 1 being the caller's) of each statement and each local declaration. */
  readonly lineOf: ReadonlyMap<Stmt | Decl, number>;
}

/** The C spelling of a type in the given flavour (gcc + ILP32: long as int, see above). */
export function typeText(t: IntType, flavour: Flavour, dm: DataModel): string {
  if (flavour === 'gcc' && dm === 'ILP32') {
    if (t === 'long') return 'int';
    if (t === 'ulong') return 'unsigned int';
  }
  return spell(t);
}

export function literalText(l: Literal, flavour: Flavour, dm: DataModel): string {
  let digits: string;
  if (l.base === 'dec') digits = l.value.toString();
  else if (l.base === 'oct') digits = l.value === 0n ? '0' : `0${l.value.toString(8)}`;
  else digits = l.upper ? `0X${l.value.toString(16).toUpperCase()}` : `0x${l.value.toString(16)}`;
  let suffix = l.suffix;
  if (flavour === 'gcc' && dm === 'ILP32' && !/ll/i.test(suffix)) suffix = suffix.replace(/[lL]/g, '');
  return digits + suffix;
}

class Printer {
  private readonly lines: string[] = [];
  private readonly lineOf = new Map<Stmt | Decl, number>();
  private readonly globalNames: ReadonlySet<string>;

  constructor(private readonly p: CProgram, private readonly flavour: Flavour, private readonly prefix: string) {
    this.globalNames = new Set(p.globals.map((g) => g.name));
  }

  private name(n: string): string {
    return this.globalNames.has(n) || n === 'f' ? this.prefix + n : n;
  }

  private type(t: IntType): string {
    return typeText(t, this.flavour, this.p.dataModel);
  }

  private emit(text: string, node?: Stmt | Decl): void {
    this.lines.push(text);
    if (node) this.lineOf.set(node, this.lines.length + 1);
  }

  /** An expression in operand position: compound ones get the gcc barrier. */
  private operand(e: Expr): string {
    const text = this.expr(e);
    if (this.flavour !== 'gcc' || e.kind === 'var' || isLiteralConstant(e)) return text;
    return `CINT_V(${this.type(typeOf(e, this.p.types, this.p.dataModel))}, ${text})`;
  }

  expr(e: Expr): string {
    switch (e.kind) {
      case 'var': return this.name(e.name);
      case 'lit': return literalText(e, this.flavour, this.p.dataModel);
      case 'unary': return `(${e.op}${this.operand(e.arg)})`;
      case 'binary': return `(${this.operand(e.left)} ${e.op} ${this.operand(e.right)})`;
      case 'cond': return `(${this.operand(e.cond)} ? ${this.operand(e.then)} : ${this.operand(e.else)})`;
      case 'cast': return `((${this.type(e.type)})${this.operand(e.arg)})`;
      case 'incdec': return e.prefix ? `(${e.op}${this.name(e.name)})` : `(${this.name(e.name)}${e.op})`;
    }
  }

  private stmts(ss: readonly Stmt[], indent: string): void {
    for (const s of ss) this.stmt(s, indent);
  }

  private stmt(s: Stmt, indent: string): void {
    switch (s.kind) {
      case 'assign': {
        const target = this.name(s.target);
        if (this.flavour === 'gcc' && s.op !== '=') {
          // x op= e is x = x op (e) (x is a plain variable, evaluated once either way), written out so
          // that the operation gets a barrier too: gcc computes `x op= e` in x's own type when x is
          // narrower, and never checks the promoted operation for overflow (`us *= -65535`).
          const op = s.op.slice(0, -1) as BinaryOp;
          const opType = typeOf({ kind: 'binary', op, left: { kind: 'var', name: s.target }, right: s.value }, this.p.types, this.p.dataModel);
          this.emit(`${indent}${target} = CINT_V(${this.type(opType)}, (${target} ${op} ${this.operand(s.value)}));`, s);
        } else {
          this.emit(`${indent}${target} ${s.op} ${this.operand(s.value)};`, s);
        }
        break;
      }
      case 'incdec':
        this.emit(`${indent}${s.prefix ? `${s.op}${this.name(s.name)}` : `${this.name(s.name)}${s.op}`};`, s);
        break;
      case 'if':
        this.emit(`${indent}if (${this.operand(s.cond)}) {`, s);
        this.stmts(s.then, indent + '  ');
        if (s.else) {
          this.emit(`${indent}} else {`);
          this.stmts(s.else, indent + '  ');
        }
        this.emit(`${indent}}`);
        break;
      case 'for':
        this.emit(`${indent}for (int ${s.var} = 0; ${s.var} < ${s.bound}; ${s.var}++) {`, s);
        this.stmts(s.body, indent + '  ');
        this.emit(`${indent}}`);
        break;
    }
  }

  body(): PrintedBody {
    for (const g of this.p.globals) {
      this.emit(`${this.type(g.type)} ${this.name(g.name)}${g.init ? ` = ${this.expr(g.init)}` : ''};`, g);
    }
    const params = this.p.params.map((q) => `${this.type(q.type)} ${q.name}`).join(', ');
    this.emit(`void ${this.name('f')}(${params}) {`);
    for (const d of this.p.nondets ?? []) {
      const call = this.flavour === 'gcc'
        ? `(${this.type(d.type)})({ unsigned long long ${NONDET_FUNCTION}(void); ${NONDET_FUNCTION}(); })`
        : `__VERIFIER_nondet_${NONDET_SUFFIX[d.type]}()`;
      this.emit(`  ${this.type(d.type)} ${d.name} = ${call};`);
    }
    for (const l of this.p.locals) this.emit(`  ${this.type(l.type)} ${l.name} = ${this.operand(l.init!)};`, l);
    this.stmts(this.p.body, '  ');
    if (this.p.assertion) {
      const call = `__VERIFIER_assert(${this.expr(this.p.assertion)});`;
      this.emit(this.flavour === 'gcc' ? `  { void __VERIFIER_assert(int); ${call} }` : `  ${call}`);
    }
    this.emit('}');
    return { lines: this.lines, lineOf: this.lineOf };
  }
}

export function printBody(p: CProgram, options: PrintOptions): PrintedBody {
  return new Printer(p, options.flavour, options.prefix ?? '').body();
}

/** The program as farkas reads it. */
export function farkasText(p: CProgram): string {
  return [`// cint program ${p.id} (${p.dataModel})`, ...printBody(p, { flavour: 'farkas' }).lines, ''].join('\n');
}

/** A C expression of type t with value v (the value must be in t's range). */
export function valueText(v: bigint, t: IntType, flavour: Flavour, dm: DataModel): string {
  const llongMin = -(1n << 63n);
  const literal = v === llongMin ? '(-9223372036854775807LL - 1)' : v > (1n << 63n) - 1n ? `${v}ULL` : `${v}LL`;
  return `(${typeText(t, flavour, dm)})${literal}`;
}

/** The call of f on the inputs and one printf per global (`name=value`), as lines of C. */
export function callAndPrint(p: CProgram, prefix: string, indent: string): string[] {
  const args = p.params.map((q) => valueText(p.inputs.get(q.name)!, q.type, 'gcc', p.dataModel));
  const out = [`${indent}${prefix}f(${args.join(', ')});`];
  for (const g of p.globals) {
    out.push(isSigned(g.type)
      ? `${indent}printf("${g.name}=%lld\\n", (long long)${prefix}${g.name});`
      : `${indent}printf("${g.name}=%llu\\n", (unsigned long long)${prefix}${g.name});`);
  }
  return out;
}

/** The stand-alone gcc program: the barrier macro, the program, and a main printing every global. */
export function gccText(p: CProgram): string {
  return [
    BARRIER_MACRO,
    ...printBody(p, { flavour: 'gcc' }).lines,
    '#include <stdio.h>',
    'int main(void) {',
    '  setvbuf(stdout, 0, _IONBF, 0);',
    ...callAndPrint(p, '', '  '),
    '  return 0;',
    '}',
    '',
  ].join('\n');
}
