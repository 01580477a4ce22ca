// Lowering of a whole translation unit: globals (constant initial values, C's static init), function
// signatures, one Procedure per defined function, and the entry procedure. Declarations that do not
// affect code (prototypes, typedefs, extern declarations, globals of unsupported types nobody uses)
// are accepted and ignored; a use of an unusable name is rejected where it occurs.
import type { DataModel, GlobalVar, Procedure, Program, Property, SourcePos, ValueRange } from '../ir/cfg.js';
import { syntaxError, unsupported } from '../diagnostics.js';
import * as L from '../ir/linear.js';
import type { CType, Declaration, Declarator, Expr, FunctionDef, Stmt, TranslationUnit } from './ast.js';
import { FunctionContext, rangeAssumed, rangeFormula, type FunctionSignature, type ProgramInfo, type Symbol } from './context.js';
import { IntTypes, returnType, scalarType, unsupportedTypeReason, type IntType } from './ctypes.js';
import { lowerStatements } from './lower-stmt.js';
import { convertTo, elaborate, type TypingScope } from './typed.js';

export interface LoweringOptions {
  readonly dataModel: DataModel;
  readonly property: Property;
}

type FunctionType = CType & { kind: 'function' };

interface GlobalDefinition {
  readonly declarator: Declarator;
  readonly typePos: SourcePos;
}

export function lowerProgram(tu: TranslationUnit, options: LoweringOptions): Program {
  const types = new IntTypes(options.dataModel);
  const functions = new Map<string, FunctionSignature>();
  const definitions: FunctionDef[] = [];
  const prototypes = new Map<string, FunctionType>();
  const globalDefs = new Map<string, GlobalDefinition>();

  // Pass 1: what exists (functions may be called before their definition, C-prototype style).
  for (const d of tu.decls) {
    if (d.kind === 'function') {
      if (d.body === null) continue; // a builtin's definition: replaced by the builtin semantics
      if (functions.has(d.name)) throw syntaxError(`redefinition of function '${d.name}'`, d.pos);
      functions.set(d.name, signature(types, d));
      definitions.push(d);
      continue;
    }
    if (d.storage === 'typedef') continue;
    for (const decl of d.declarators) {
      if (decl.type.kind === 'function') {
        prototypes.set(decl.name, decl.type);
        continue;
      }
      if (d.storage === 'extern') continue;
      const previous = globalDefs.get(decl.name);
      if (previous && previous.declarator.init !== null && decl.init !== null) {
        throw syntaxError(`redefinition of '${decl.name}'`, decl.pos);
      }
      // Tentative definitions (`int x; int x = 1;`): the one with the initialiser wins.
      if (!previous || decl.init !== null) globalDefs.set(decl.name, { declarator: decl, typePos: decl.type.kind === 'base' ? d.pos : decl.pos });
    }
  }
  for (const name of globalDefs.keys()) {
    if (functions.has(name)) throw syntaxError(`'${name}' redeclared as a different kind of symbol`, globalDefs.get(name)!.declarator.pos);
  }

  const writtenNames = assignedNames(definitions);
  // Globals: IR variables for the supported scalar ones; the others become unusable names.
  const globals: GlobalVar[] = [];
  const globalSymbols = new Map<string, Symbol>();
  for (const [name, def] of globalDefs) {
    const reason = unsupportedTypeReason(def.declarator.type);
    if (reason !== null) {
      globalSymbols.set(name, { kind: 'unusable', unsupported: true, reason: `global '${name}' of ${reason}` });
      continue;
    }
    const type = scalarType(types, def.declarator.type, def.typePos, `variable '${name}'`);
    const init = def.declarator.init === null ? 0n : constantInitialiser(types, def.declarator.init, type);
    globals.push({ name, init, type: type.name });
    // A global nothing assigns keeps its initial value: reads fold to it.
    const written = writtenNames.has(name);
    globalSymbols.set(name, { kind: 'var', ir: name, type, ...(written ? {} : { constant: init }) });
  }

  const info: ProgramInfo = {
    file: tu.file,
    types,
    property: options.property,
    identifiers: tu.identifiers,
    enumConstants: tu.enumConstants,
    globalNames: new Set(globals.map((g) => g.name)),
    functions,
    prototypes,
  };

  // Pass 2, in source order: a global is visible from its first declaration on.
  const visible = new Map<string, Symbol>();
  const procedures = new Map<string, Procedure>();
  for (const d of tu.decls) {
    if (d.kind === 'function') {
      if (d.body !== null) procedures.set(d.name, lowerFunction(info, d, visible));
      continue;
    }
    if (d.storage === 'typedef') continue;
    for (const decl of d.declarators) {
      if (decl.type.kind === 'function') continue;
      const sym = globalSymbols.get(decl.name) ?? {
        kind: 'unusable' as const,
        unsupported: true,
        reason: `extern variable '${decl.name}' without a definition in this file`,
      };
      visible.set(decl.name, sym);
    }
  }

  if (definitions.length === 0) throw syntaxError('no function definition in the file', { file: tu.file, line: 1, col: 1 });
  const entry = functions.has('main') ? 'main' : definitions[definitions.length - 1]!.name;
  return { file: tu.file, dataModel: options.dataModel, property: options.property, globals, procedures, entry };
}

function signature(types: IntTypes, d: FunctionDef): FunctionSignature {
  if (d.type.variadic) throw unsupported(`variadic function '${d.name}'`, d.pos);
  const ret = returnType(types, d.type.ret, d.pos, d.name);
  const params: IntType[] = [];
  for (const p of d.type.params ?? []) {
    if (p.name === null) throw syntaxError(`parameter name omitted in definition of '${d.name}'`, p.pos);
    if (isMainPointerParameter(d, p.type)) continue;
    params.push(scalarType(types, p.type, p.pos, `parameter '${p.name}'`));
  }
  return { name: d.name, params, ret, pos: d.pos };
}

/** `main(int argc, char *argv[])`: argv is accepted as long as the code never uses it. */
function isMainPointerParameter(d: FunctionDef, t: CType): boolean {
  return d.name === 'main' && (t.kind === 'pointer' || t.kind === 'array');
}

/** C's static initialisation: the initialiser must fold to a constant, converted to the variable's type. */
function constantInitialiser(types: IntTypes, init: Expr, type: IntType): bigint {
  if (init.kind === 'initlist') throw unsupported('initializer list', init.pos);
  const notConstant = (): never => {
    throw syntaxError('initializer element is not constant', init.pos);
  };
  const scope: TypingScope = { types, variable: notConstant, callee: notConstant };
  const value = convertTo(type, elaborate(scope, init));
  if (value.kind !== 'const') return notConstant();
  return value.value;
}

function lowerFunction(info: ProgramInfo, d: FunctionDef, visible: ReadonlyMap<string, Symbol>): Procedure {
  const sig = info.functions.get(d.name)!;
  const ctx = new FunctionContext(info, d.name, sig.ret, visible, d.pos);
  let k = 0;
  const paramRanges = new Map<string, ValueRange>();
  for (const p of d.type.params ?? []) {
    const name = p.name!;
    if (isMainPointerParameter(d, p.type)) {
      ctx.bindAlias(name, { kind: 'unusable', unsupported: true, reason: `pointer parameter '${name}' of main` }, p.pos);
      continue;
    }
    const type = sig.params[k++]!;
    const sym = ctx.declareParam(name, type, p.pos);
    paramRanges.set(sym.ir, type.range);
    // An input holds a value of its type; stated where the analyses need it (see rangeAssumed).
    if (rangeAssumed(type)) ctx.emit({ kind: 'assume', cond: rangeFormula(sym.ir, type) }, p.pos);
  }
  lowerStatements(ctx, d.body!);
  if (ctx.cur !== null) {
    // Falling off the end: main returns 0 (C99); any other function returns an unspecified value.
    const end = d.end;
    if (ctx.returnVar !== null && ctx.returnType !== null) {
      if (d.name === 'main') ctx.emit({ kind: 'assign', target: ctx.returnVar, expr: L.constant(0n) }, end);
      else ctx.havocValue(ctx.returnVar, ctx.returnType, end);
    }
    ctx.jump(ctx.exit, end);
  }
  const graph = ctx.builder.finish(ctx.entry, ctx.exit);
  return {
    name: d.name,
    params: ctx.params,
    paramRanges,
    locals: ctx.locals,
    varTypes: ctx.varTypes,
    returnVar: ctx.returnVar,
    entry: graph.entry,
    exit: graph.exit,
    locations: graph.locations,
    edges: graph.edges,
    pos: d.pos,
  };
}

/** Every name an assignment, compound assignment, increment or `&` in a function body may write (whatever
 * scope it resolves to: a global shadowed by a written local counts as written, conservatively). */
function assignedNames(definitions: readonly FunctionDef[]): Set<string> {
  const names = new Set<string>();
  const expr = (e: Expr | null | undefined): void => {
    if (!e) return;
    switch (e.kind) {
      case 'assign':
        if (e.target.kind === 'ident') names.add(e.target.name);
        expr(e.target);
        expr(e.value);
        return;
      case 'incdec':
        if (e.arg.kind === 'ident') names.add(e.arg.name);
        expr(e.arg);
        return;
      case 'unary':
        if (e.op === '&' && e.arg.kind === 'ident') names.add(e.arg.name); // its address escapes: may be written
        expr(e.arg);
        return;
      case 'cast':
        expr(e.arg);
        return;
      case 'binary':
      case 'comma':
        expr(e.left);
        expr(e.right);
        return;
      case 'cond':
        expr(e.test);
        expr(e.then);
        expr(e.else);
        return;
      case 'call':
        expr(e.callee);
        e.args.forEach(expr);
        return;
      case 'index':
        expr(e.base);
        expr(e.index);
        return;
      case 'member':
        expr(e.base);
        return;
      default:
        return;
    }
  };
  const decl = (d: Declaration): void => d.declarators.forEach((x) => expr(x.init));
  const stmt = (s: Stmt): void => {
    switch (s.kind) {
      case 'expr': expr(s.expr); return;
      case 'decl': decl(s.decl); return;
      case 'block': s.body.forEach(stmt); return;
      case 'if':
        if (s.test.kind === 'expr') expr(s.test.expr);
        stmt(s.then);
        if (s.else) stmt(s.else);
        return;
      case 'while':
      case 'do':
        if (s.test.kind === 'expr') expr(s.test.expr);
        stmt(s.body);
        return;
      case 'for':
        if (s.init?.kind === 'decl') decl(s.init);
        else expr(s.init as Expr | null);
        expr(s.test);
        expr(s.step);
        stmt(s.body);
        return;
      case 'return': expr(s.value); return;
      case 'label': stmt(s.body); return;
      default: return;
    }
  };
  for (const d of definitions) d.body?.forEach(stmt);
  return names;
}
