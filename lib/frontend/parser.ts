// Recursive-descent parser for the C subset (and the wider C syntax of SV-COMP preambles).
//
// Hand-written rather than generated: the subset is small, every diagnostic must carry the exact
// line:column of the offending token with a message a C programmer recognises ("expected ';' after
// expression"), preamble-only syntax (attributes, prototypes, typedefs, string literals) must be
// parsed leniently so that it can be ignored, and the project takes no grammar-tool dependency.
// The parser builds an AST (./ast.ts) and decides nothing about what the lowering supports, except
// for statements that have no AST form here (goto, switch, asm, statement expressions), which are
// rejected on the spot with an `unsupported:` diagnostic.
import type { SourcePos } from '../ir/cfg.js';
import { syntaxError, unsupported } from '../diagnostics.js';
import { tokenize, type Token } from './lexer.js';
import { REPLACEABLE_DEFINITIONS } from './builtins.js';
import type {
  AssignOp, BaseType, BinaryOp, CType, Condition, Declaration, Declarator, Expr, ExternalDecl, FunctionDef,
  ParamDecl, Stmt, StorageClass, TranslationUnit,
} from './ast.js';

const NO_SUFFIX = { unsigned: false, longs: 0 } as const;

const TYPE_WORDS = new Set([
  'void', 'char', 'short', 'int', 'long', 'float', 'double', 'signed', 'unsigned', '_Bool', '_Complex',
  '__int128', '__signed', '__signed__', '__builtin_va_list', '_Float16', '_Float32', '_Float64', '_Float128', '__float128',
]);
const QUALIFIERS = new Set([
  'const', 'volatile', 'restrict', '__restrict', '__restrict__', '__const', '__const__', '__volatile', '__volatile__',
  'inline', '__inline', '__inline__', '_Noreturn', '__thread', '_Thread_local', '_Atomic', '__extension__',
]);
const STORAGE = new Set(['typedef', 'extern', 'static', 'auto', 'register']);
const RECORDS = new Set(['struct', 'union', 'enum']);
const ATTRIBUTES = new Set(['__attribute__', '__attribute', '__declspec']);
const ASM = new Set(['asm', '__asm', '__asm__']);
const STATEMENT_KEYWORDS = new Set([
  'if', 'else', 'while', 'do', 'for', 'break', 'continue', 'return', 'goto', 'switch', 'case', 'default', 'sizeof',
]);
const FUNCTION_NAME_STRINGS = new Set(['__func__', '__FUNCTION__', '__PRETTY_FUNCTION__']);

const BINARY_PRECEDENCE: Readonly<Record<string, number>> = {
  '||': 1, '&&': 2, '|': 3, '^': 4, '&': 5, '==': 6, '!=': 6, '<': 7, '>': 7, '<=': 7, '>=': 7,
  '<<': 8, '>>': 8, '+': 9, '-': 9, '*': 10, '/': 10, '%': 10,
};
const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=']);

interface DeclSpecs {
  readonly storage: StorageClass;
  readonly type: CType;
  readonly pos: SourcePos;
}

interface ParsedDeclarator {
  readonly name: string | null;
  readonly pos: SourcePos;
  readonly wrap: (t: CType) => CType;
}

export function parseTranslationUnit(source: string, file: string): TranslationUnit {
  const tokens = tokenize(source, file);
  const parser = new Parser(tokens);
  const decls = parser.translationUnit();
  const identifiers = new Set(tokens.filter((t) => t.kind === 'ident').map((t) => t.text));
  return { file, decls, identifiers, enumConstants: parser.enumConstants };
}

/** Deepest nesting the parser accepts, counted in statements, assignments, conditionals and operands
 * inside one another (a parenthesis costs three levels; C requires compilers to take 63 levels of
 * parentheses and 127 of blocks). Each level costs stack frames in the parser and in every later
 * recursion over the syntax tree, so deeper input is a positioned input error, not a crash. */
export const MAX_NESTING = 1000;

class Parser {
  private i = 0;
  /** Statements and expressions being parsed, one inside the other (MAX_NESTING). */
  private depth = 0;
  /** Typedef names by block scope; a `null` entry is an ordinary identifier shadowing a typedef. */
  private readonly typedefScopes: Array<Map<string, CType | null>> = [new Map()];
  readonly enumConstants = new Set<string>();

  constructor(private readonly tokens: readonly Token[]) {}

  // ---- token helpers ----

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const t = this.peek();
    if (t.kind !== 'eof') this.i++;
    return t;
  }

  private is(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return (t.kind === 'punct' || t.kind === 'ident') && t.text === text;
  }

  private accept(text: string): boolean {
    if (!this.is(text)) return false;
    this.next();
    return true;
  }

  private expect(text: string, context: string): Token {
    if (this.is(text)) return this.next();
    throw this.errorHere(`expected '${text}' ${context}`);
  }

  /** `parse()` one nesting level deeper. */
  private nested<T>(parse: () => T): T {
    if (this.depth >= MAX_NESTING) throw syntaxError(`nested too deeply (more than ${MAX_NESTING} levels of statements, parentheses and operators)`, this.peek().pos);
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private errorHere(message: string) {
    const t = this.peek();
    const found = t.kind === 'eof' ? 'end of file' : `'${t.text}'`;
    return syntaxError(`${message}, found ${found}`, t.pos);
  }

  private expectIdent(context: string): Token {
    const t = this.peek();
    if (t.kind !== 'ident' || this.isReserved(t.text)) throw this.errorHere(`expected identifier ${context}`);
    return this.next();
  }

  private isReserved(word: string): boolean {
    return STATEMENT_KEYWORDS.has(word) || TYPE_WORDS.has(word) || QUALIFIERS.has(word) || STORAGE.has(word) || RECORDS.has(word);
  }

  /** Skips a balanced `( … )`, `[ … ]` or `{ … }` group starting at the current token. */
  private skipBalanced(): void {
    const open = this.peek();
    const closers: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
    const stack: string[] = [];
    do {
      const t = this.next();
      if (t.kind === 'eof') throw syntaxError(`unbalanced '${open.text}'`, open.pos);
      if (t.kind === 'punct' && closers[t.text]) stack.push(closers[t.text]!);
      else if (t.kind === 'punct' && (t.text === ')' || t.text === ']' || t.text === '}')) {
        if (stack.pop() !== t.text) throw syntaxError(`unbalanced '${t.text}'`, t.pos);
      }
    } while (stack.length > 0);
  }

  /** `__attribute__((…))`, `__declspec(…)`, `__asm__("…")` in declarations: parsed and ignored. */
  private skipAttributes(): boolean {
    let skipped = false;
    for (;;) {
      const t = this.peek();
      if (t.kind === 'ident' && (ATTRIBUTES.has(t.text) || ASM.has(t.text))) {
        this.next();
        while (this.is('volatile') || this.is('__volatile__')) this.next();
        if (!this.is('(')) throw this.errorHere(`expected '(' after '${t.text}'`);
        this.skipBalanced();
        skipped = true;
      } else if (t.kind === 'ident' && t.text === '__extension__') {
        this.next();
        skipped = true;
      } else return skipped;
    }
  }

  // ---- typedef scopes ----

  private typedefType(name: string): CType | undefined {
    for (let s = this.typedefScopes.length - 1; s >= 0; s--) {
      const scope = this.typedefScopes[s]!;
      if (scope.has(name)) return scope.get(name) ?? undefined;
    }
    return undefined;
  }

  private bindName(name: string, typedef: CType | null): void {
    this.typedefScopes[this.typedefScopes.length - 1]!.set(name, typedef);
  }

  private withScope<T>(body: () => T): T {
    this.typedefScopes.push(new Map());
    try {
      return body();
    } finally {
      this.typedefScopes.pop();
    }
  }

  // ---- declarations ----

  /** True when the token at `offset` can start declaration specifiers. */
  private startsDeclaration(offset = 0): boolean {
    const t = this.peek(offset);
    if (t.kind !== 'ident') return false;
    return (
      TYPE_WORDS.has(t.text) || QUALIFIERS.has(t.text) || STORAGE.has(t.text) || RECORDS.has(t.text) ||
      ATTRIBUTES.has(t.text) || this.typedefType(t.text) !== undefined
    );
  }

  private declSpecs(): DeclSpecs | null {
    const pos = this.peek().pos;
    let storage: StorageClass = null;
    const words: string[] = [];
    let named: CType | null = null;
    let any = false;
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'ident') break;
      if (STORAGE.has(t.text)) {
        if (storage !== null && storage !== t.text) throw syntaxError(`multiple storage classes in declaration`, t.pos);
        storage = t.text as StorageClass;
      } else if (QUALIFIERS.has(t.text)) {
        // const, volatile, inline, …: no effect on integer semantics.
      } else if (ATTRIBUTES.has(t.text)) {
        this.skipAttributes();
        any = true;
        continue;
      } else if (TYPE_WORDS.has(t.text)) {
        if (named !== null) throw syntaxError(`'${t.text}' after type name '${typeName(named)}'`, t.pos);
        words.push(t.text);
      } else if (RECORDS.has(t.text)) {
        if (named !== null || words.length > 0) throw syntaxError(`two or more data types in declaration`, t.pos);
        named = { kind: 'base', base: this.recordSpecifier() };
        any = true;
        continue;
      } else if (t.text === 'typeof' || t.text === '__typeof__' || t.text === '__typeof') {
        throw unsupported(`'${t.text}'`, t.pos);
      } else {
        const td = this.typedefType(t.text);
        if (td === undefined || named !== null || words.length > 0) break;
        named = td;
      }
      this.next();
      any = true;
    }
    if (!any) return null;
    return { storage, type: named ?? { kind: 'base', base: baseFromWords(words) }, pos };
  }

  /** `struct tag { … }`, `union …`, `enum …`: the body is skipped (only enum constant names are kept). */
  private recordSpecifier(): BaseType {
    const keyword = this.next().text;
    this.skipAttributes();
    let tag = '<anonymous>';
    if (this.peek().kind === 'ident' && !this.is('{')) tag = this.next().text;
    this.skipAttributes();
    if (this.is('{')) {
      const start = this.i;
      this.skipBalanced();
      if (keyword === 'enum') this.collectEnumConstants(start + 1, this.i - 1);
    }
    return { name: `${keyword} ${tag}`, kind: 'record', unsigned: false };
  }

  private collectEnumConstants(from: number, to: number): void {
    let depth = 0;
    let expectName = true;
    for (let k = from; k < to; k++) {
      const t = this.tokens[k]!;
      if (t.kind === 'punct' && (t.text === '(' || t.text === '[' || t.text === '{')) depth++;
      else if (t.kind === 'punct' && (t.text === ')' || t.text === ']' || t.text === '}')) depth--;
      else if (depth === 0 && t.kind === 'punct' && t.text === ',') expectName = true;
      else if (depth === 0 && expectName && t.kind === 'ident') {
        this.enumConstants.add(t.text);
        expectName = false;
      }
    }
  }

  private pointerPrefix(): number {
    let n = 0;
    while (this.accept('*')) {
      n++;
      while (this.peek().kind === 'ident' && (QUALIFIERS.has(this.peek().text) || ATTRIBUTES.has(this.peek().text))) {
        if (!this.skipAttributes()) this.next();
      }
    }
    return n;
  }

  /** At `(` inside a declarator: a parenthesised declarator (`(*fp)`) rather than a parameter list? */
  private parenthesisedDeclaratorAhead(): boolean {
    const t = this.peek(1);
    if (t.kind === 'punct') return t.text === '*' || t.text === '(' || t.text === '^';
    if (t.kind !== 'ident') return false;
    if (ATTRIBUTES.has(t.text)) return true;
    return !this.startsDeclaration(1) && !this.isReserved(t.text);
  }

  /**
   * A (possibly abstract) declarator. `wrap` turns the declaration's base type into the declared
   * entity's type, composing pointers, arrays and functions in C's inside-out order.
   */
  private declarator(abstractAllowed: boolean): ParsedDeclarator {
    this.skipAttributes();
    const pointers = this.pointerPrefix();
    let inner: ParsedDeclarator | null = null;
    let name: string | null = null;
    let pos = this.peek().pos;
    const t = this.peek();
    if (t.kind === 'ident' && !this.isReserved(t.text) && !ATTRIBUTES.has(t.text) && !ASM.has(t.text)) {
      name = this.next().text;
    } else if (this.is('(') && this.parenthesisedDeclaratorAhead()) {
      this.next();
      inner = this.declarator(abstractAllowed);
      this.expect(')', 'to close the declarator');
      name = inner.name;
      pos = inner.pos;
    } else if (!abstractAllowed) {
      throw this.errorHere('expected identifier or \'(\' in declarator');
    }
    const suffixes: Array<(t: CType) => CType> = [];
    for (;;) {
      if (this.is('[')) {
        this.skipBalanced();
        suffixes.push((of) => ({ kind: 'array', of }));
      } else if (this.is('(')) {
        const { params, variadic } = this.parameterList();
        suffixes.push((ret) => ({ kind: 'function', ret, params, variadic }));
      } else if (!this.skipAttributes()) break;
    }
    const wrap = (base: CType): CType => {
      let r = base;
      for (let k = 0; k < pointers; k++) r = { kind: 'pointer', to: r };
      for (let k = suffixes.length - 1; k >= 0; k--) r = suffixes[k]!(r);
      return inner ? inner.wrap(r) : r;
    };
    return { name, pos, wrap };
  }

  private parameterList(): { params: ParamDecl[] | null; variadic: boolean } {
    this.expect('(', 'to open the parameter list');
    if (this.accept(')')) return { params: null, variadic: false };
    if (this.is('void') && this.is(')', 1)) {
      this.next();
      this.next();
      return { params: [], variadic: false };
    }
    const params: ParamDecl[] = [];
    let variadic = false;
    for (;;) {
      if (this.is('...')) {
        this.next();
        variadic = true;
        break;
      }
      const specs = this.declSpecs();
      if (!specs) {
        if (this.peek().kind === 'ident') throw syntaxError('old-style (K&R) parameter lists are not accepted: give each parameter a type', this.peek().pos);
        throw this.errorHere('expected a parameter declaration');
      }
      const d = this.declarator(true);
      params.push({ name: d.name, type: d.wrap(specs.type), pos: d.name ? d.pos : specs.pos });
      if (!this.accept(',')) break;
    }
    this.expect(')', 'to close the parameter list');
    return { params, variadic };
  }

  translationUnit(): ExternalDecl[] {
    const decls: ExternalDecl[] = [];
    while (this.peek().kind !== 'eof') {
      if (this.accept(';')) continue;
      if (this.is('_Static_assert')) {
        this.next();
        this.skipBalanced();
        this.expect(';', 'after _Static_assert');
        continue;
      }
      if (this.peek().kind === 'ident' && ASM.has(this.peek().text)) {
        this.skipAttributes();
        this.expect(';', 'after top-level asm');
        continue;
      }
      decls.push(this.externalDeclaration());
    }
    return decls;
  }

  private externalDeclaration(): ExternalDecl {
    const start = this.peek();
    let specs = this.declSpecs();
    if (!specs) {
      // C89 implicit int: `main() { … }`.
      if (start.kind === 'ident' && !this.isReserved(start.text) && this.is('(', 1)) {
        specs = { storage: null, type: { kind: 'base', base: baseFromWords([]) }, pos: start.pos };
      } else {
        throw this.errorHere('expected a declaration or function definition');
      }
    }
    if (this.accept(';')) return { kind: 'decl', storage: specs.storage, pos: specs.pos, declarators: [] };
    const first = this.declarator(false);
    const firstType = first.wrap(specs.type);
    if (firstType.kind === 'function' && this.is('{')) return this.functionDefinition(specs, first, firstType);
    if (firstType.kind === 'function' && this.startsDeclaration()) {
      throw syntaxError('old-style (K&R) function definitions are not accepted: give each parameter a type in the list', this.peek().pos);
    }
    return this.declarationRest(specs, first);
  }

  private functionDefinition(specs: DeclSpecs, d: ParsedDeclarator, type: CType & { kind: 'function' }): FunctionDef {
    const name = d.name!;
    this.bindName(name, null);
    if (REPLACEABLE_DEFINITIONS.has(name)) {
      // The builtin semantics replace the body (which uses __assert_fail, strings, GNU extensions).
      const start = this.peek().pos;
      this.skipBalanced();
      return { kind: 'function', name, pos: d.pos, type, storage: specs.storage, body: null, end: start };
    }
    const { body, end } = this.withScope(() => {
      for (const p of type.params ?? []) if (p.name) this.bindName(p.name, null);
      return this.blockWithEnd();
    });
    return { kind: 'function', name, pos: d.pos, type, storage: specs.storage, body, end };
  }

  /** The declarators after the specifiers (the first one already parsed), through the closing `;`. */
  private declarationRest(specs: DeclSpecs, first: ParsedDeclarator): Declaration {
    const declarators: Declarator[] = [];
    let d = first;
    for (;;) {
      if (!d.name) throw syntaxError('expected identifier in declaration', d.pos);
      const type = d.wrap(specs.type);
      let init: Expr | null = null;
      if (this.accept('=')) {
        if (specs.storage === 'typedef') throw syntaxError(`typedef '${d.name}' is initialized`, d.pos);
        init = this.initializer();
      }
      this.bindName(d.name, specs.storage === 'typedef' ? type : null);
      declarators.push({ name: d.name, pos: d.pos, type, init });
      if (!this.accept(',')) break;
      d = this.declarator(false);
    }
    this.expect(';', 'after declaration');
    return { kind: 'decl', storage: specs.storage, pos: specs.pos, declarators };
  }

  private initializer(): Expr {
    if (this.is('{')) {
      const pos = this.peek().pos;
      this.skipBalanced();
      return { kind: 'initlist', pos };
    }
    return this.assignment();
  }

  private declaration(): Declaration {
    const specs = this.declSpecs()!;
    if (this.accept(';')) return { kind: 'decl', storage: specs.storage, pos: specs.pos, declarators: [] };
    return this.declarationRest(specs, this.declarator(false));
  }

  // ---- statements ----

  private blockBody(): Stmt[] {
    return this.blockWithEnd().body;
  }

  private blockWithEnd(): { body: Stmt[]; end: SourcePos } {
    this.expect('{', 'to open the block');
    const body: Stmt[] = [];
    while (!this.is('}')) {
      if (this.peek().kind === 'eof') throw this.errorHere("expected '}' at end of block");
      body.push(this.statement());
    }
    return { body, end: this.next().pos };
  }

  private statement(): Stmt {
    return this.nested(() => this.statementUnnested());
  }

  private statementUnnested(): Stmt {
    const t = this.peek();
    const pos = t.pos;
    if (t.kind === 'punct') {
      if (t.text === '{') return { kind: 'block', pos, body: this.withScope(() => this.blockBody()) };
      if (t.text === ';') {
        this.next();
        return { kind: 'empty', pos };
      }
    }
    if (t.kind === 'ident') {
      switch (t.text) {
        case 'if': {
          this.next();
          const test = this.condition('if');
          const then = this.statement();
          const otherwise = this.accept('else') ? this.statement() : null;
          return { kind: 'if', pos, test, then, else: otherwise };
        }
        case 'while': {
          this.next();
          const test = this.condition('while');
          return { kind: 'while', pos, test, body: this.statement() };
        }
        case 'do': {
          this.next();
          const body = this.statement();
          this.expect('while', "after 'do' body");
          const test = this.condition('do-while');
          this.expect(';', "after 'do … while (…)'");
          return { kind: 'do', pos, body, test };
        }
        case 'for':
          return this.forStatement();
        case 'break':
        case 'continue':
          this.next();
          this.expect(';', `after '${t.text}'`);
          return { kind: t.text, pos };
        case 'return': {
          this.next();
          const value = this.is(';') ? null : this.expression();
          this.expect(';', 'after return statement');
          return { kind: 'return', pos, value };
        }
        case 'goto':
          throw unsupported("'goto'", pos);
        case 'switch':
          throw unsupported("'switch' statement (rewrite it as if/else)", pos);
        case 'case':
        case 'default':
          throw unsupported(`'${t.text}' label (switch statements are not supported)`, pos);
        case 'else':
          throw syntaxError("'else' without a previous 'if'", pos);
        default:
          break;
      }
      if (ASM.has(t.text)) throw unsupported('inline assembly', pos);
      if (this.is(':', 1) && !this.isReserved(t.text) && this.typedefType(t.text) === undefined) {
        // Labels (e.g. SV-COMP's `ERROR:`) are ignored: without goto nothing jumps to them.
        this.next();
        this.next();
        if (this.is('}')) return { kind: 'label', pos, name: t.text, body: { kind: 'empty', pos: this.peek().pos } };
        return { kind: 'label', pos, name: t.text, body: this.statement() };
      }
      if (this.startsDeclaration()) {
        const decl = this.declaration();
        return { kind: 'decl', pos, decl };
      }
      // `uint32_t x;` without its typedef: two identifiers in a row start a declaration of an unknown type.
      const after = this.peek(1);
      if (after.kind === 'ident' && !this.isReserved(t.text) && !this.isReserved(after.text) && /^[=;,[]$/.test(this.peek(2).text)) {
        throw syntaxError(`unknown type name '${t.text}'`, pos);
      }
    }
    const expr = this.expression();
    this.expect(';', 'after expression');
    return { kind: 'expr', pos, expr };
  }

  /** `( expr )` or `( * )` after if/while/do-while. */
  private condition(what: string): Condition {
    this.expect('(', `after '${what === 'do-while' ? 'while' : what}'`);
    if (this.is('*') && this.is(')', 1)) {
      const pos = this.next().pos;
      this.next();
      return { kind: 'nondet', pos };
    }
    if (this.is(')')) throw this.errorHere(`expected expression in '${what}' condition`);
    const expr = this.expression();
    this.expect(')', `after '${what}' condition`);
    return { kind: 'expr', expr };
  }

  private forStatement(): Stmt {
    const pos = this.next().pos;
    this.expect('(', "after 'for'");
    return this.withScope(() => {
      let init: Declaration | Expr | null = null;
      if (this.startsDeclaration()) init = this.declaration();
      else {
        if (!this.is(';')) init = this.expression();
        this.expect(';', "after 'for' initialisation");
      }
      const test = this.is(';') ? null : this.expression();
      this.expect(';', "after 'for' condition");
      const step = this.is(')') ? null : this.expression();
      this.expect(')', "after 'for' header");
      const body = this.statement();
      return { kind: 'for', pos, init, test, step, body };
    });
  }

  // ---- expressions ----

  expression(): Expr {
    let left = this.assignment();
    while (this.is(',')) {
      this.next();
      const right = this.assignment();
      left = { kind: 'comma', pos: left.pos, left, right };
    }
    return left;
  }

  private assignment(): Expr {
    return this.nested(() => this.assignmentUnnested());
  }

  private assignmentUnnested(): Expr {
    const target = this.conditional();
    const t = this.peek();
    if (t.kind === 'punct' && ASSIGN_OPS.has(t.text)) {
      this.next();
      const value = this.assignment();
      return { kind: 'assign', pos: target.pos, opPos: t.pos, op: t.text as AssignOp, target, value };
    }
    return target;
  }

  private conditional(): Expr {
    return this.nested(() => this.conditionalUnnested());
  }

  private conditionalUnnested(): Expr {
    const test = this.binary(1);
    if (!this.is('?')) return test;
    this.next();
    const then = this.expression();
    this.expect(':', "in conditional expression (after '?' branch)");
    const otherwise = this.conditional();
    return { kind: 'cond', pos: test.pos, test, then, else: otherwise };
  }

  private binary(minPrecedence: number): Expr {
    let left = this.castExpression();
    for (;;) {
      const t = this.peek();
      const prec = t.kind === 'punct' ? BINARY_PRECEDENCE[t.text] : undefined;
      if (prec === undefined || prec < minPrecedence) return left;
      this.next();
      const right = this.binary(prec + 1);
      left = { kind: 'binary', pos: left.pos, opPos: t.pos, op: t.text as BinaryOp, left, right };
    }
  }

  /** `( type-name )` ahead? */
  private typeNameAhead(): boolean {
    return this.is('(') && this.startsDeclaration(1);
  }

  private typeName(): CType {
    const specs = this.declSpecs();
    if (!specs) throw this.errorHere('expected a type name');
    if (specs.storage !== null) throw syntaxError(`storage class '${specs.storage}' in a type name`, specs.pos);
    return this.declarator(true).wrap(specs.type);
  }

  private castExpression(): Expr {
    return this.nested(() => this.castExpressionUnnested());
  }

  private castExpressionUnnested(): Expr {
    if (this.typeNameAhead()) {
      const pos = this.next().pos;
      const type = this.typeName();
      this.expect(')', 'after type name in cast');
      if (this.is('{')) throw unsupported('compound literal', pos);
      const arg = this.castExpression();
      return { kind: 'cast', pos, type, arg };
    }
    return this.unary();
  }

  private unary(): Expr {
    const t = this.peek();
    if (t.kind === 'punct') {
      if (t.text === '++' || t.text === '--') {
        this.next();
        return { kind: 'incdec', pos: t.pos, op: t.text, prefix: true, arg: this.unary() };
      }
      if (t.text === '-' || t.text === '+' || t.text === '!' || t.text === '~' || t.text === '&' || t.text === '*') {
        this.next();
        return { kind: 'unary', pos: t.pos, op: t.text, arg: this.castExpression() };
      }
    }
    if (t.kind === 'ident') {
      if (t.text === 'sizeof' || t.text === '_Alignof' || t.text === '__alignof__') {
        this.next();
        if (this.typeNameAhead()) {
          this.next();
          this.typeName();
          this.expect(')', `after type name in '${t.text}'`);
        } else this.unary();
        return { kind: 'sizeof', pos: t.pos };
      }
      if (t.text === '__extension__') {
        this.next();
        return this.castExpression();
      }
    }
    return this.postfix();
  }

  private postfix(): Expr {
    let e = this.primary();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'punct') return e;
      switch (t.text) {
        case '(': {
          this.next();
          const args: Expr[] = [];
          if (!this.is(')')) {
            do args.push(this.assignment());
            while (this.accept(','));
          }
          this.expect(')', 'after call arguments');
          e = { kind: 'call', pos: e.pos, callee: e, args };
          break;
        }
        case '[': {
          this.next();
          const index = this.expression();
          this.expect(']', 'after array index');
          e = { kind: 'index', pos: t.pos, base: e, index };
          break;
        }
        case '.':
        case '->': {
          this.next();
          const field = this.expectIdent(`after '${t.text}'`).text;
          e = { kind: 'member', pos: t.pos, base: e, arrow: t.text === '->', field };
          break;
        }
        case '++':
        case '--':
          this.next();
          e = { kind: 'incdec', pos: e.pos, op: t.text, prefix: false, arg: e };
          break;
        default:
          return e;
      }
    }
  }

  private primary(): Expr {
    const t = this.peek();
    switch (t.kind) {
      case 'int':
        this.next();
        return { kind: 'int', pos: t.pos, value: t.value!, suffix: t.suffix ?? NO_SUFFIX, decimal: t.decimal ?? true, text: t.text };
      case 'char':
        this.next();
        return { kind: 'int', pos: t.pos, value: t.value!, suffix: NO_SUFFIX, decimal: true, text: t.text };
      case 'float':
        this.next();
        return { kind: 'float', pos: t.pos, text: t.text };
      case 'string':
        this.next();
        while (this.peek().kind === 'string') this.next(); // adjacent literals concatenate
        return { kind: 'string', pos: t.pos };
      case 'ident':
        if (FUNCTION_NAME_STRINGS.has(t.text)) {
          this.next();
          return { kind: 'string', pos: t.pos };
        }
        if (this.isReserved(t.text) || ASM.has(t.text)) throw this.errorHere('expected expression');
        this.next();
        return { kind: 'ident', pos: t.pos, name: t.text };
      case 'punct':
        if (t.text === '(') {
          this.next();
          if (this.is('{')) throw unsupported('statement expression', t.pos);
          const e = this.expression();
          this.expect(')', 'to close the parenthesised expression');
          return e;
        }
        throw this.errorHere('expected expression');
      case 'eof':
        throw this.errorHere('expected expression');
    }
  }
}

/** Canonical base type of a list of type keywords (`unsigned`, `long`, `long`, `int`, …). */
function baseFromWords(words: readonly string[]): BaseType {
  const has = (w: string) => words.includes(w);
  const unsignedWord = has('unsigned');
  const signedWord = has('signed') || has('__signed') || has('__signed__');
  if (has('void')) return { name: 'void', kind: 'void', unsigned: false };
  if (has('float') || has('double') || words.some((w) => w.startsWith('_Float') || w === '__float128') || has('_Complex')) {
    return { name: words.join(' '), kind: 'float', unsigned: false };
  }
  if (has('__builtin_va_list')) return { name: 'va_list', kind: 'other', unsigned: false };
  if (has('_Bool')) return { name: '_Bool', kind: 'bool', unsigned: false };
  const prefix = unsignedWord ? 'unsigned ' : '';
  let core: string;
  if (has('__int128')) core = '__int128';
  else if (has('char')) core = unsignedWord ? 'char' : signedWord ? 'signed char' : 'char';
  else if (has('short')) core = 'short';
  else {
    const longs = words.filter((w) => w === 'long').length;
    core = longs >= 2 ? 'long long' : longs === 1 ? 'long' : 'int';
  }
  return { name: prefix + core, kind: 'integer', unsigned: unsignedWord };
}

/** C spelling of a type, for messages: `unsigned int`, `int *`, `char []`, `int (int, int)`. */
export function typeName(t: CType): string {
  switch (t.kind) {
    case 'base':
      return t.base.name;
    case 'pointer':
      return `${typeName(t.to)} *`;
    case 'array':
      return `${typeName(t.of)} []`;
    case 'function':
      return `${typeName(t.ret)} (${(t.params ?? []).map((p) => typeName(p.type)).join(', ')}${t.variadic ? ', ...' : ''})`;
  }
}
