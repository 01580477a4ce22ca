// Tokeniser for the C subset. Preprocessor lines (`#include`, `# 12 "file.c"` line markers, …) are
// skipped whole, comments dropped; every token keeps its 1-based line and column so later stages can
// point at the exact character. Numbers are kept exact (bigint); suffixes and floating-point literals
// are recorded so the lowering can reject them with a precise message rather than the lexer guessing.
import type { SourcePos } from '../ir/cfg.js';
import { syntaxError } from '../diagnostics.js';
import type { LiteralSuffix } from './ctypes.js';

export type TokenKind = 'ident' | 'int' | 'float' | 'char' | 'string' | 'punct' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly pos: SourcePos;
  /** Value of an integer or character constant. */
  readonly value?: bigint;
  /** An integer constant's suffix (`u`, `l`, `ll` and their combinations), which with its radix
   * decides its C type. */
  readonly suffix?: LiteralSuffix;
  /** An integer constant written in decimal (its candidate types differ from hex and octal ones). */
  readonly decimal?: boolean;
}

// Longest first, so the greedy match picks `<<=` over `<<` over `<`.
const PUNCTUATORS = [
  '...', '<<=', '>>=',
  '->', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '*=', '/=', '%=', '+=', '-=', '&=', '^=', '|=', '##',
  '[', ']', '(', ')', '{', '}', '.', '&', '*', '+', '-', '~', '!', '/', '%', '<', '>', '^', '|', '?', ':', ';', '=', ',', '#',
];

// Punctuators by first character, longest first (tried in order at each position).
const PUNCTUATORS_BY_FIRST = new Map<string, string[]>();
for (const p of PUNCTUATORS) PUNCTUATORS_BY_FIRST.set(p[0]!, [...(PUNCTUATORS_BY_FIRST.get(p[0]!) ?? []), p]);

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isIdentStart(c: string | undefined): boolean {
  return c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$');
}

function isIdentPart(c: string | undefined): boolean {
  return isIdentStart(c) || isDigit(c);
}

const SIMPLE_ESCAPES: Record<string, number> = {
  n: 10, t: 9, r: 13, '0': 0, a: 7, b: 8, f: 12, v: 11, '\\': 92, "'": 39, '"': 34, '?': 63,
};

export function tokenize(source: string, file: string): Token[] {
  return new Lexer(source, file).tokens();
}

/** One pass over the source: trivia (white space, comments, directives) skipped, tokens read. */
class Lexer {
  private i = 0;
  private line = 1;
  private lineStart = 0;
  // True while only whitespace has been seen on the current line: a `#` there starts a directive.
  private atLineStart = true;

  constructor(private readonly source: string, private readonly file: string) {}

  tokens(): Token[] {
    const out: Token[] = [];
    while (this.i < this.source.length) {
      if (this.skipTrivia()) continue;
      this.atLineStart = false;
      out.push(this.token());
    }
    out.push({ kind: 'eof', text: '<end of file>', pos: this.posAt(this.i) });
    return out;
  }

  private posAt(index: number): SourcePos {
    return { file: this.file, line: this.line, col: index - this.lineStart + 1 };
  }

  private newline(index: number): void {
    this.line++;
    this.lineStart = index + 1;
    this.atLineStart = true;
  }

  /** Skips one piece of trivia at the current position; false when a token starts there. */
  private skipTrivia(): boolean {
    const { source } = this;
    const c = source[this.i]!;
    if (c === '\n') {
      this.newline(this.i);
      this.i++;
      return true;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      this.i++;
      return true;
    }
    if (c === '\\' && (source[this.i + 1] === '\n' || (source[this.i + 1] === '\r' && source[this.i + 2] === '\n'))) {
      // Line splice outside a directive: just a line break for positions.
      this.i += source[this.i + 1] === '\n' ? 1 : 2;
      this.newline(this.i);
      this.i++;
      return true;
    }
    if (c === '/' && source[this.i + 1] === '/') {
      while (this.i < source.length && source[this.i] !== '\n') this.i++;
      return true;
    }
    if (c === '/' && source[this.i + 1] === '*') {
      const start = this.posAt(this.i);
      this.i += 2;
      while (this.i < source.length && !(source[this.i] === '*' && source[this.i + 1] === '/')) {
        if (source[this.i] === '\n') this.newline(this.i);
        this.i++;
      }
      if (this.i >= source.length) throw syntaxError('unterminated comment', start);
      this.i += 2;
      return true;
    }
    if (c === '#' && this.atLineStart) {
      // Preprocessor directive or line marker: skip to the end of the line, honouring `\` splices.
      while (this.i < source.length && source[this.i] !== '\n') {
        if (source[this.i] === '\\' && source[this.i + 1] === '\n') {
          this.i++;
          this.newline(this.i);
        } else if (source[this.i] === '\\' && source[this.i + 1] === '\r' && source[this.i + 2] === '\n') {
          this.i += 2;
          this.newline(this.i);
        }
        this.i++;
      }
      return true;
    }
    return false;
  }

  /** The token at the current position, which it moves past. */
  private token(): Token {
    const { source, i } = this;
    const c = source[i]!;
    const pos = this.posAt(i);
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < source.length && isIdentPart(source[j])) j++;
      // A prefixed character or string literal: L'x', u8"…" and friends.
      const word = source.slice(i, j);
      if ((source[j] === "'" || source[j] === '"') && /^(L|u|U|u8)$/.test(word)) {
        const lit = source[j] === "'" ? this.lexChar(j) : this.lexString(j);
        this.i = lit.end;
        return { ...lit.token, text: word + lit.token.text, pos };
      }
      this.i = j;
      return { kind: 'ident', text: word, pos };
    }
    if (isDigit(c) || (c === '.' && isDigit(source[i + 1]))) {
      const end = scanNumber(source, i);
      this.i = end;
      return numberToken(source.slice(i, end), pos);
    }
    if (c === "'" || c === '"') {
      const lit = c === "'" ? this.lexChar(i) : this.lexString(i);
      this.i = lit.end;
      return { ...lit.token, pos };
    }
    const punct = PUNCTUATORS_BY_FIRST.get(c)?.find((p) => p.length === 1 || source.startsWith(p, i));
    if (punct !== undefined) {
      this.i += punct.length;
      return { kind: 'punct', text: punct, pos };
    }
    const shown = c.charCodeAt(0) < 32 || c.charCodeAt(0) > 126 ? `\\u{${c.codePointAt(0)!.toString(16)}}` : c;
    throw syntaxError(`unexpected character '${shown}'`, pos);
  }

  // Reads one (possibly escaped) character starting at j inside a literal closed by `quote`.
  private readLiteralChar(j: number, quote: string, start: SourcePos): { code: number; next: number } {
    const { source } = this;
    const ch = source[j];
    if (ch === undefined || ch === '\n') throw syntaxError(`missing terminating ${quote} character`, start);
    if (ch !== '\\') return { code: source.codePointAt(j)!, next: j + (source.codePointAt(j)! > 0xffff ? 2 : 1) };
    const e = source[j + 1];
    if (e === undefined) throw syntaxError(`missing terminating ${quote} character`, start);
    if (e === 'x') {
      let k = j + 2;
      while (k < source.length && /[0-9a-fA-F]/.test(source[k]!)) k++;
      if (k === j + 2) throw syntaxError('\\x used with no following hex digits', this.posAt(j));
      return { code: parseInt(source.slice(j + 2, k), 16), next: k };
    }
    if (/[0-7]/.test(e)) {
      let k = j + 1;
      while (k < source.length && k < j + 4 && /[0-7]/.test(source[k]!)) k++;
      return { code: parseInt(source.slice(j + 1, k), 8), next: k };
    }
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) return { code: simple, next: j + 2 };
    // Unknown escapes keep the character (as compilers do, with a warning).
    return { code: e.charCodeAt(0), next: j + 2 };
  }

  private lexChar(start: number): { token: Token; end: number } {
    const startPos = this.posAt(start);
    let j = start + 1;
    if (this.source[j] === "'") throw syntaxError('empty character constant', startPos);
    const codes: number[] = [];
    while (this.source[j] !== "'") {
      const r = this.readLiteralChar(j, "'", startPos);
      codes.push(r.code);
      j = r.next;
    }
    // A plain `char` is signed here: values above 127 wrap as on the usual targets.
    let value = BigInt(codes[0]!);
    if (codes.length === 1 && value > 127n && value < 256n) value -= 256n;
    return { token: { kind: 'char', text: this.source.slice(start, j + 1), pos: startPos, value }, end: j + 1 };
  }

  private lexString(start: number): { token: Token; end: number } {
    const startPos = this.posAt(start);
    let j = start + 1;
    while (this.source[j] !== '"') j = this.readLiteralChar(j, '"', startPos).next;
    return { token: { kind: 'string', text: this.source.slice(start, j + 1), pos: startPos }, end: j + 1 };
  }
}

/** End index of the preprocessing number starting at i (C's pp-number, so `1e+5` and `0x1p-3` stay whole). */
function scanNumber(source: string, i: number): number {
  let j = i + 1;
  while (j < source.length) {
    const ch = source[j]!;
    if ((ch === '+' || ch === '-') && /[eEpP]/.test(source[j - 1]!) && !/^0[xX][0-9a-fA-F]*[eE]$/.test(source.slice(i, j))) {
      j++;
      continue;
    }
    if (/[0-9A-Za-z_.]/.test(ch)) {
      j++;
      continue;
    }
    break;
  }
  return j;
}

function numberToken(text: string, pos: SourcePos): Token {
  const intMatch = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)([uUlL]*)$/.exec(text);
  if (intMatch) {
    const digits = intMatch[1]!;
    const suffix = intMatch[2]!;
    if (!/^(u|U)?(l|L|ll|LL)?$/.test(suffix) && !/^(l|L|ll|LL)(u|U)$/.test(suffix)) {
      throw syntaxError(`invalid suffix '${suffix}' on integer constant`, pos);
    }
    let value: bigint;
    if (/^0[0-9]+$/.test(digits)) {
      if (/[89]/.test(digits)) throw syntaxError(`invalid digit in octal constant '${text}'`, pos);
      value = BigInt('0o' + digits.slice(1));
    } else {
      value = BigInt(digits); // BigInt understands 0x… and 0b…
    }
    const longs = /ll|LL/.test(suffix) ? 2 : /[lL]/.test(suffix) ? 1 : 0;
    const decimal = !/^0[xXbB0-9]/.test(digits) || digits === '0';
    return { kind: 'int', text, pos, value, suffix: { unsigned: /[uU]/.test(suffix), longs }, decimal };
  }
  if (/^([0-9]*\.[0-9]*([eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+|0[xX][0-9a-fA-F]*\.?[0-9a-fA-F]*[pP][+-]?[0-9]+)[fFlL]?$/.test(text) && text !== '.') {
    return { kind: 'float', text, pos };
  }
  throw syntaxError(`invalid numeric constant '${text}'`, pos);
}
