// Invariants as C expressions over source names, both ways: printing an IR formula with the C names in
// scope at a location, and reading a witness's C expression back into an IR formula with the project's
// own front end (parser + the pure-expression lowering), so nothing is trusted that the front end would
// not accept in a program.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { SourcePos } from '../ir/cfg.js';
import { InputError, syntaxError } from '../diagnostics.js';
import { parseTranslationUnit } from '../frontend/parser.js';
import { PureEvaluator } from '../frontend/pure.js';
import { IntTypes, type ExpressionTyping } from '../frontend/ctypes.js';

export { typingOf, type ExpressionTyping } from '../frontend/ctypes.js';
import { elaborate, isPure, type TExpr, type TypingScope } from '../frontend/typed.js';
import { ghostText, type RemainderGhost } from '../ir/remainder-ghosts.js';

/** C name → IR variable, as recorded by the front end at a loop header (Location.scope). */
export type CScope = Readonly<Record<string, string>>;

/** IR variable → the C name that denotes it in `scope`, or undefined when no C name does. */
export function cNameOf(scope: CScope): (ir: string) => string | undefined {
  const back = new Map<string, string>();
  for (const [c, ir] of Object.entries(scope)) back.set(ir, c);
  return (ir) => back.get(ir);
}

/** The conjuncts of f (top-level `and` split). */
export function conjuncts(f: Formula): Formula[] {
  return f.kind === 'and' ? [...f.args] : f.kind === 'true' ? [] : [f];
}

/** f as a C expression over the names in scope, or null when it mentions a variable out of scope. A
 * ghost quotient (remainder-ghosts.ts) is written as the division it stands for, `(i / 3)`. The
 * formula is over mathematical integers while C evaluates an expression in its operands' types: an
 * unsigned variable is written `(long long)u`, so that no operation wraps around (and an unsigned
 * type too wide for that makes the formula unstatable: null). */
export function formulaToC(f: Formula, scope: CScope, ghosts: readonly RemainderGhost[] = [], typing?: ExpressionTyping): string | null {
  const name = cNameOf(scope);
  const types = new IntTypes(typing?.dataModel ?? 'ILP32');
  const ghostCText = new Map(ghosts.flatMap((g) => {
    const c = name(g.variable);
    return c === undefined ? [] : [[g.ghost, ghostText(g, c)] as const];
  }));
  const text = (v: string): string | undefined => {
    const c = name(v);
    if (c === undefined) return ghostCText.get(v);
    const typeName = typing?.typeOf(v);
    if (typeName === undefined || !types.has(typeName)) return c;
    const t = types.named(typeName);
    if (t.signed || t.isBool) return c;
    return t.bits <= 32 ? `(long long)${c}` : undefined;
  };
  if ([...F.variablesOf(f)].some((v) => text(v) === undefined)) return null;
  return F.toC(f, (v) => text(v)!);
}

/**
 * Parses a side-effect-free C expression over the variables of `scope` into a formula over their IR
 * names. Throws InputError (positioned in `file`, at `pos` when known) for anything else: calls,
 * assignments, unknown identifiers, non-linear arithmetic.
 */
export function parseCExpression(text: string, scope: CScope, file: string, pos?: SourcePos, ghosts: readonly RemainderGhost[] = [], typing?: ExpressionTyping): Formula {
  // The expression is parsed as the only statement of a function body; positions inside it are
  // reported relative to that wrapper line, so errors name the witness location instead.
  const wrapperName = '__farkas_witness_expression';
  let tu;
  try {
    tu = parseTranslationUnit(`void ${wrapperName}(void) { (${text}); }`, file);
  } catch (e) {
    if (e instanceof InputError) throw syntaxError(`invalid C expression '${text}'`, pos ?? null);
    throw e;
  }
  const fn = tu.decls.find((d) => d.kind === 'function' && d.name === wrapperName);
  const stmt = fn && fn.kind === 'function' ? fn.body?.[0] : undefined;
  if (!stmt || stmt.kind !== 'expr' || (fn?.kind === 'function' && fn.body!.length !== 1)) {
    throw syntaxError(`expected one C expression, got '${text}'`, pos ?? null);
  }
  const types = new IntTypes(typing?.dataModel ?? 'ILP32');
  // Without types, a variable is read as a 128-bit integer: wide enough that nothing in a witness wraps.
  const typeOf = (ir: string) => {
    const name = typing?.typeOf(ir);
    return name !== undefined && types.has(name) ? types.named(name) : types.named('__int128');
  };
  const notAllowed = (): never => {
    throw syntaxError(`'${text}' has side effects (calls, assignments, increments)`, pos ?? null);
  };
  const typingScope: TypingScope = {
    types,
    variable(cName: string) {
      const ir = scope[cName];
      if (ir === undefined) throw syntaxError(`'${cName}' is not a variable in scope here (in '${text}')`, pos ?? null);
      return { kind: 'var', ir, type: typeOf(ir) };
    },
    callee: notAllowed,
  };
  let typed: TExpr;
  try {
    typed = elaborate(typingScope, stmt.expr);
  } catch (e) {
    if (e instanceof InputError) throw syntaxError(`unsupported C expression '${text}': ${e.detail}`, pos ?? null);
    throw e;
  }
  if (!isPure(typed)) notAllowed();
  // `v / m` and `v % m` are read as the ghost quotient of v by m (and v - m times it), checked on the
  // program with that ghost; any other division is not supported.
  const divisions = new Map<TExpr, L.Linear>();
  const unsupported = divisionsOf(typed).find((d) => {
    const left = d.left.kind === 'convert' ? d.left.arg : d.left;
    const ir = left.kind === 'var' ? left.ir : undefined;
    const m = d.right.kind === 'const' ? d.right.value : undefined;
    const ghost = ghosts.find((g) => g.variable === ir && g.modulus === m);
    if (!ghost || ir === undefined) return true;
    divisions.set(d, d.op === '/' ? L.variable(ghost.ghost) : L.sub(L.variable(ir), L.variable(ghost.ghost, ghost.modulus)));
    return false;
  });
  if (unsupported) throw syntaxError(`division and modulo are only supported in witness expressions as a variable by a constant the program divides it by ('${text}')`, pos ?? null);
  try {
    return new PureEvaluator(divisions).formula(typed);
  } catch (e) {
    if (e instanceof InputError) throw syntaxError(`unsupported C expression '${text}': ${e.detail}`, pos ?? null);
    if (e instanceof Error && e.message.startsWith('internal:') && e.message.includes('was not prepared')) {
      throw syntaxError(`unsupported C expression '${text}': a conversion that needs a ghost value`, pos ?? null);
    }
    throw e;
  }
}

type Division = Extract<TExpr, { kind: 'arith' }>;

function divisionsOf(t: TExpr): Division[] {
  switch (t.kind) {
    case 'arith': return [...(t.op === '/' || t.op === '%' ? [t] : []), ...divisionsOf(t.left), ...divisionsOf(t.right)];
    case 'convert':
    case 'neg':
    case 'bitnot':
    case 'not':
    case 'discard': return divisionsOf(t.arg);
    case 'shift': return divisionsOf(t.left);
    case 'compare':
    case 'logic':
    case 'comma': return [...divisionsOf(t.left), ...divisionsOf(t.right)];
    case 'cond': return [...divisionsOf(t.test), ...divisionsOf(t.then), ...divisionsOf(t.else)];
    default: return [];
  }
}
