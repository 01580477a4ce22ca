// Lowering of statements into the CFG: structured control flow (if, loops with their header
// locations, break/continue, return), local declarations (havoc when uninitialised) and the
// non-deterministic `*` conditions (choice locations).
import type { SourcePos } from '../ir/cfg.js';
import { syntaxError, unsupported } from '../diagnostics.js';
import type { Condition, Declaration, Declarator, Expr, Stmt } from './ast.js';
import type { FunctionContext, VarSymbol } from './context.js';
import { scalarType } from './ctypes.js';
import { lowerCondition, lowerEffect, lowerInto } from './lower-expr.js';
import { asValue, convertTo, elaborate, rejectExpression, type TExpr } from './typed.js';

/** A full expression, type-checked in the scope where it stands. */
function typed(ctx: FunctionContext, e: Expr): TExpr {
  return elaborate(ctx, e);
}

export function lowerStatements(ctx: FunctionContext, body: readonly Stmt[]): void {
  for (const s of body) lowerStatement(ctx, s);
}

/** A sub-statement (if/loop body) gets its own block scope, as in C99. */
function lowerNested(ctx: FunctionContext, s: Stmt): void {
  ctx.withScope(() => lowerStatement(ctx, s));
}

function lowerStatement(ctx: FunctionContext, s: Stmt): void {
  switch (s.kind) {
    case 'expr':
      lowerEffect(ctx, typed(ctx, s.expr));
      return;
    case 'decl':
      lowerLocalDeclaration(ctx, s.decl);
      return;
    case 'block':
      ctx.withScope(() => lowerStatements(ctx, s.body));
      return;
    case 'empty':
      return;
    case 'label':
      // Labels are only jump targets for goto, which is not supported: the label itself is ignored.
      lowerStatement(ctx, s.body);
      return;
    case 'if': {
      const thenLoc = ctx.newLocation();
      const elseLoc = ctx.newLocation();
      const join = ctx.newLocation();
      lowerTest(ctx, s.test, thenLoc, elseLoc);
      ctx.cur = thenLoc;
      lowerNested(ctx, s.then);
      if (ctx.cur !== null) ctx.jump(join, s.pos);
      ctx.cur = elseLoc;
      if (s.else) lowerNested(ctx, s.else);
      if (ctx.cur !== null) ctx.jump(join, s.pos);
      ctx.cur = join;
      return;
    }
    case 'while': {
      const header = loopHeader(ctx, s.pos);
      const body = ctx.newLocation();
      const after = ctx.newLocation();
      ctx.cur = header;
      lowerTest(ctx, s.test, body, after);
      ctx.cur = body;
      ctx.inLoop({ breakTo: after, continueTo: header }, () => lowerNested(ctx, s.body));
      if (ctx.cur !== null) ctx.jump(header, s.pos);
      ctx.cur = after;
      return;
    }
    case 'do': {
      // The header is the start of the body; `continue` goes to the condition.
      const header = loopHeader(ctx, s.pos);
      const test = ctx.newLocation();
      const after = ctx.newLocation();
      ctx.cur = header;
      ctx.inLoop({ breakTo: after, continueTo: test }, () => lowerNested(ctx, s.body));
      if (ctx.cur !== null) ctx.jump(test, s.pos);
      ctx.cur = test;
      lowerTest(ctx, s.test, header, after);
      ctx.cur = after;
      return;
    }
    case 'for':
      ctx.withScope(() => {
        if (s.init?.kind === 'decl') lowerLocalDeclaration(ctx, s.init);
        else if (s.init) lowerEffect(ctx, typed(ctx, s.init));
        const header = loopHeader(ctx, s.pos);
        const body = ctx.newLocation();
        const step = ctx.newLocation();
        const after = ctx.newLocation();
        ctx.cur = header;
        if (s.test) lowerCondition(ctx, asValue(typed(ctx, s.test)), body, after);
        else ctx.jump(body, s.pos);
        ctx.cur = body;
        // `continue` runs the step before the next test.
        ctx.inLoop({ breakTo: after, continueTo: step }, () => lowerNested(ctx, s.body));
        if (ctx.cur !== null) ctx.jump(step, s.pos);
        ctx.cur = step;
        if (s.step) lowerEffect(ctx, typed(ctx, s.step));
        ctx.jump(header, s.pos);
        ctx.cur = after;
      });
      return;
    case 'break':
      ctx.jump(ctx.loopTargets('break', s.pos).breakTo, s.pos);
      return;
    case 'continue':
      ctx.jump(ctx.loopTargets('continue', s.pos).continueTo, s.pos);
      return;
    case 'return':
      lowerReturn(ctx, s.value, s.pos);
      return;
  }
}

/** A new loop header entered from the cursor; the cursor is unset (the caller continues at the header). */
function loopHeader(ctx: FunctionContext, pos: SourcePos): number {
  const header = ctx.newLocation({ pos, label: 'loop', loopHeader: true, scope: ctx.visibleVariables() });
  ctx.jump(header, pos);
  return header;
}

/** Branch of if/while/do: `*` is a choice location (then/body edge first), anything else a condition. */
function lowerTest(ctx: FunctionContext, test: Condition, yes: number, no: number): void {
  if (test.kind === 'nondet') {
    const from = ctx.here();
    ctx.builder.markChoice(from);
    ctx.edge(from, yes, { kind: 'skip' }, test.pos);
    ctx.edge(from, no, { kind: 'skip' }, test.pos);
    ctx.cur = null;
    return;
  }
  lowerCondition(ctx, asValue(typed(ctx, test.expr)), yes, no);
}

function lowerReturn(ctx: FunctionContext, value: Expr | null, pos: SourcePos): void {
  if (value !== null) {
    if (ctx.returnType === null || ctx.returnVar === null) {
      throw syntaxError(`'return' with a value, in function '${ctx.name}' returning void`, value.pos);
    }
    const sym: VarSymbol = { kind: 'var', ir: ctx.returnVar, type: ctx.returnType };
    lowerInto(ctx, sym, convertTo(ctx.returnType, typed(ctx, value)), pos);
  } else if (ctx.returnVar !== null && ctx.returnType !== null) {
    // `return;` in a function returning a value: the result is unspecified.
    ctx.havocValue(ctx.returnVar, ctx.returnType, pos);
  }
  ctx.jump(ctx.exit, pos);
}

/** The position to blame for a declarator's type: its specifiers for a plain type, else the declarator. */
function typePos(decl: Declaration, d: Declarator): SourcePos {
  return d.type.kind === 'base' ? decl.pos : d.pos;
}

function lowerLocalDeclaration(ctx: FunctionContext, decl: Declaration): void {
  if (decl.storage === 'typedef') return;
  for (const d of decl.declarators) {
    if (d.type.kind === 'function') continue; // a block-scope prototype declares nothing to lower
    if (decl.storage === 'extern') throw unsupported(`block-scope extern declaration of '${d.name}'`, d.pos);
    if (decl.storage === 'static') {
      throw unsupported(`static local variable '${d.name}' (its value would persist across calls)`, decl.pos);
    }
    const type = scalarType(ctx.types, d.type, typePos(decl, d), `variable '${d.name}'`);
    if (d.init?.kind === 'initlist') rejectExpression(d.init);
    // The initialiser is checked before the name is in scope only for its type; C puts the name in
    // scope at the end of its declarator (`int x = x;` reads the new, indeterminate x).
    const sym = ctx.declareLocal(d.name, type, d.pos);
    if (d.init === null) {
      // An uninitialised local holds an arbitrary value of its type.
      ctx.havocValue(sym.ir, type, d.pos);
    } else {
      lowerInto(ctx, sym, convertTo(type, typed(ctx, d.init)), d.pos);
    }
  }
}
