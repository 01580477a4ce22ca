// State of lowering one function: the CFG under construction with its "current location" cursor,
// block scopes mapping C names to IR variables (renaming shadowing locals), temporaries, and the
// loop stack for break/continue. Program-wide facts (globals, function signatures) come in ProgramInfo.
import type { Property, SourcePos, Stmt as IrStmt } from '../ir/cfg.js';
import { syntaxError, unsupported } from '../diagnostics.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { CfgBuilder, type LocationOptions } from './cfg-builder.js';
import type { CType } from './ast.js';
import { builtinArity, builtinKind, isNondetName, nondetType } from './builtins.js';
import { returnType, type IntType, type IntTypes } from './ctypes.js';
import type { Callee, TypingScope } from './typed.js';

export interface VarSymbol {
  readonly kind: 'var';
  /** The IR variable name. */
  readonly ir: string;
  readonly type: IntType;
  /** A global no statement of the program writes: its value is always its initial value, read as
   * that constant (so it can divide, scale or shift: `i % (SIZE + 2)`). */
  readonly constant?: bigint;
}

/** A name that exists in C but cannot be used in code (e.g. a global of an unsupported type). */
export interface UnusableSymbol {
  readonly kind: 'unusable';
  readonly unsupported: boolean;
  readonly reason: string;
}

export type Symbol = VarSymbol | UnusableSymbol;

export interface FunctionSignature {
  readonly name: string;
  readonly params: readonly IntType[];
  readonly ret: IntType | null;
  readonly pos: SourcePos;
}

export interface ProgramInfo {
  readonly file: string;
  readonly types: IntTypes;
  readonly property: Property;
  /** Every identifier in the source: generated names (temporaries, renamed locals) avoid them. */
  readonly identifiers: ReadonlySet<string>;
  readonly enumConstants: ReadonlySet<string>;
  /** IR names of all globals of the program (visible or not): locals must differ from them. */
  readonly globalNames: ReadonlySet<string>;
  /** Functions defined in the file (lowered to procedures). */
  readonly functions: ReadonlyMap<string, FunctionSignature>;
  /** Functions only declared (prototypes), by name. */
  readonly prototypes: ReadonlyMap<string, CType & { kind: 'function' }>;
}

interface LoopTargets {
  readonly breakTo: number;
  readonly continueTo: number;
}

/**
 * Whether the front end states a value's range as an assumption wherever it havocs one (inputs,
 * nondet calls, uninitialised locals): for unsigned and sub-int types, whose wrap-arounds depend on
 * it. Signed types of int rank and above keep unbounded values in the analyses, as before C types
 * were modelled (an over-approximation; concrete runs still stay in range).
 */
export function rangeAssumed(type: IntType): boolean {
  return !type.signed || type.rank < 3;
}

export function rangeFormula(target: string, type: IntType): Formula {
  return F.inRange(L.variable(target), type.range);
}

export class FunctionContext implements TypingScope {
  readonly builder = new CfgBuilder();
  readonly entry: number;
  readonly exit: number;
  /** Where the next statement is emitted; null after a jump (following code is unreachable). */
  cur: number | null;
  readonly returnVar: string | null;
  private readonly scopes: Array<Map<string, Symbol>>;
  private readonly paramNames = new Set<string>();
  /** IR names bound by the enclosing scopes (with multiplicity for safety). */
  private readonly liveNames = new Map<string, number>();
  private readonly localNames: string[] = [];
  /** C type names of the declared parameters and locals, by IR name. */
  readonly varTypes = new Map<string, string>();
  private readonly generated = new Set<string>();
  private tempCounter = 0;
  private readonly loops: LoopTargets[] = [];

  constructor(
    readonly program: ProgramInfo,
    readonly name: string,
    readonly returnType: IntType | null,
    globals: ReadonlyMap<string, Symbol>,
    readonly pos: SourcePos,
  ) {
    this.scopes = [new Map(globals), new Map()];
    this.entry = this.builder.newLocation({ pos, label: 'entry' });
    this.exit = this.builder.newLocation({ label: 'exit' });
    this.cur = this.entry;
    this.returnVar = returnType ? this.generatedName('__ret') : null;
    // The return variable is a local like any other (scopeOf(program, proc) must cover it).
    if (this.returnVar !== null) this.localNames.push(this.returnVar);
  }

  get file(): string {
    return this.program.file;
  }

  get types(): IntTypes {
    return this.program.types;
  }

  get locals(): readonly string[] {
    return this.localNames;
  }

  get params(): readonly string[] {
    return [...this.paramNames];
  }

  // ---- names and scopes ----

  private taken(name: string): boolean {
    return (
      this.program.globalNames.has(name) || this.paramNames.has(name) || (this.liveNames.get(name) ?? 0) > 0 ||
      this.generated.has(name) || name === this.returnVar
    );
  }

  /** A name no C identifier in the file and no other variable uses. */
  private generatedName(base: string): string {
    let name = base;
    for (let k = 1; this.program.identifiers.has(name) || this.taken(name); k++) name = `${base}_${k}`;
    this.generated.add(name);
    return name;
  }

  /** IR name for a declaration of C name `cName`: the C name itself unless something visible uses it. */
  private declarationName(cName: string): string {
    if (!this.taken(cName)) return cName;
    let k = 1;
    while (this.taken(`${cName}_${k}`) || this.program.identifiers.has(`${cName}_${k}`)) k++;
    const name = `${cName}_${k}`;
    this.generated.add(name);
    return name;
  }

  declareParam(cName: string, type: IntType, pos: SourcePos): VarSymbol {
    const scope = this.scopes[this.scopes.length - 1]!;
    if (scope.has(cName)) throw syntaxError(`redefinition of parameter '${cName}'`, pos);
    const ir = this.declarationName(cName);
    this.paramNames.add(ir);
    this.varTypes.set(ir, type.name);
    const sym: VarSymbol = { kind: 'var', ir, type };
    scope.set(cName, sym);
    return sym;
  }

  declareLocal(cName: string, type: IntType, pos: SourcePos): VarSymbol {
    const scope = this.scopes[this.scopes.length - 1]!;
    if (scope.has(cName)) throw syntaxError(`redefinition of '${cName}'`, pos);
    const ir = this.declarationName(cName);
    this.bindLive(ir);
    if (!this.localNames.includes(ir)) this.localNames.push(ir);
    this.varTypes.set(ir, type.name);
    const sym: VarSymbol = { kind: 'var', ir, type };
    scope.set(cName, sym);
    return sym;
  }

  /** Binds a C name in the current block to an existing symbol (block-scope `extern` declarations). */
  bindAlias(cName: string, sym: Symbol, pos: SourcePos): void {
    const scope = this.scopes[this.scopes.length - 1]!;
    if (scope.has(cName)) throw syntaxError(`redefinition of '${cName}'`, pos);
    scope.set(cName, sym);
  }

  private bindLive(ir: string): void {
    this.liveNames.set(ir, (this.liveNames.get(ir) ?? 0) + 1);
  }

  withScope(body: () => void): void {
    const scope = new Map<string, Symbol>();
    this.scopes.push(scope);
    try {
      body();
    } finally {
      this.scopes.pop();
      for (const sym of scope.values()) {
        if (sym.kind === 'var') this.liveNames.set(sym.ir, (this.liveNames.get(sym.ir) ?? 1) - 1);
      }
    }
  }

  /** Fresh temporary `__tmpN` (never reused, never equal to a C identifier). */
  temp(): string {
    let name: string;
    do name = `__tmp${++this.tempCounter}`;
    while (this.program.identifiers.has(name) || this.taken(name));
    this.generated.add(name);
    this.localNames.push(name);
    return name;
  }

  lookup(cName: string): Symbol | undefined {
    for (let s = this.scopes.length - 1; s >= 0; s--) {
      const sym = this.scopes[s]!.get(cName);
      if (sym) return sym;
    }
    return undefined;
  }

  /** The C variables visible here (innermost declaration wins), C name → IR name. */
  visibleVariables(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const scope of this.scopes) {
      for (const [cName, sym] of scope) {
        if (sym.kind === 'var') out[cName] = sym.ir;
        else delete out[cName];
      }
    }
    return out;
  }

  /** The variable a C identifier denotes, or the right diagnostic. */
  variable(cName: string, pos: SourcePos): VarSymbol {
    const sym = this.lookup(cName);
    if (sym?.kind === 'var') return sym;
    if (sym?.kind === 'unusable') {
      throw sym.unsupported ? unsupported(sym.reason, pos) : syntaxError(sym.reason, pos);
    }
    if (this.program.enumConstants.has(cName)) throw unsupported(`enum constant '${cName}'`, pos);
    if (this.program.functions.has(cName) || this.program.prototypes.has(cName)) {
      throw unsupported(`function '${cName}' used as a value (function pointers)`, pos);
    }
    throw syntaxError(`'${cName}' undeclared`, pos);
  }

  read(cName: string, pos: SourcePos): Linear {
    return L.variable(this.variable(cName, pos).ir);
  }

  /** What a call of `name` means: a defined function, a nondet function, a builtin; else the diagnostic. */
  callee(name: string, pos: SourcePos): Callee {
    if (this.lookup(name) !== undefined) throw syntaxError(`called object '${name}' is not a function`, pos);
    const sig = this.program.functions.get(name);
    if (sig) return { kind: 'function', sig };
    if (isNondetName(name)) {
      const proto = this.program.prototypes.get(name);
      if (!name.startsWith('__VERIFIER_nondet_') && proto) {
        // A hand-written `nondet()` takes its type from its declared return type.
        const ret = returnType(this.types, proto.ret, pos, name);
        if (ret === null) throw syntaxError(`'${name}' returns void`, pos);
        return { kind: 'nondet', type: ret };
      }
      return { kind: 'nondet', type: nondetType(this.types, name, pos) };
    }
    const kind = builtinKind(name);
    if (kind === undefined) {
      const declared = this.program.prototypes.has(name) ? 'declared but not defined' : 'not declared';
      throw unsupported(`call to undefined function '${name}' (${declared})`, pos);
    }
    return { kind: 'builtin', builtin: kind, arity: builtinArity(kind, name) };
  }

  /** `target := ?` with a value of the given type (and its range assumed, see rangeAssumed). */
  havocValue(target: string, type: IntType, pos: SourcePos): void {
    this.emit({ kind: 'havoc', target, range: type.range }, pos);
    if (rangeAssumed(type)) this.emit({ kind: 'assume', cond: rangeFormula(target, type) }, pos);
  }

  /** The check that a signed operation stays in range: a premise for reachability (concrete runs
   * check it; analyses may drop it), the property itself for no-overflow. */
  overflowCheck(cond: Formula, pos: SourcePos): void {
    if (cond.kind === 'true') return;
    if (this.program.property === 'no-overflow') this.emit({ kind: 'assert', cond, overflow: true }, pos);
    else this.emit({ kind: 'assume', cond, premise: true }, pos);
  }

  // ---- emission ----

  newLocation(options: LocationOptions = {}): number {
    return this.builder.newLocation(options);
  }

  /** The current location; after a jump, a fresh (unreachable) one so dead code still gets checked. */
  here(): number {
    if (this.cur === null) this.cur = this.builder.newLocation();
    return this.cur;
  }

  /** Appends `stmt` at the current location and moves the cursor past it. */
  emit(stmt: IrStmt, pos: SourcePos): void {
    const from = this.here();
    const to = this.builder.newLocation();
    this.builder.addEdge(from, to, stmt, pos);
    this.cur = to;
  }

  /** Adds an edge from the current location to `to`; the cursor becomes unset (control left). */
  jump(to: number, pos: SourcePos, stmt: IrStmt = { kind: 'skip' }): void {
    this.builder.addEdge(this.here(), to, stmt, pos);
    this.cur = null;
  }

  edge(from: number, to: number, stmt: IrStmt, pos: SourcePos): void {
    this.builder.addEdge(from, to, stmt, pos);
  }

  // ---- loops ----

  inLoop<T>(targets: LoopTargets, body: () => T): T {
    this.loops.push(targets);
    try {
      return body();
    } finally {
      this.loops.pop();
    }
  }

  loopTargets(keyword: 'break' | 'continue', pos: SourcePos): LoopTargets {
    const top = this.loops[this.loops.length - 1];
    if (!top) throw syntaxError(`'${keyword}' statement not in a loop`, pos);
    return top;
  }
}
