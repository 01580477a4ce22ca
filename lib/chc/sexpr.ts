// S-expressions of SMT-LIB text, each with its source position. Read without recursion, so that a
// file's nesting depth is bounded by memory, not by the JavaScript stack.
import type { SourcePos } from '../ir/cfg.js';
import { syntaxError } from '../diagnostics.js';

export type SExpr =
  /** A symbol (`|quoted|` ones unquoted), a numeral, or a keyword (`:named`). */
  | { readonly kind: 'atom'; readonly text: string; readonly quoted: boolean; readonly pos: SourcePos }
  | { readonly kind: 'string'; readonly text: string; readonly pos: SourcePos }
  | { readonly kind: 'list'; readonly items: readonly SExpr[]; readonly pos: SourcePos };

/** Every top-level S-expression of `text`. */
export function readSExprs(text: string, file: string): SExpr[] {
  const top: SExpr[] = [];
  const open: { items: SExpr[]; pos: SourcePos }[] = [];
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const posAt = (offset: number): SourcePos => ({ file, line, col: offset - lineStart + 1 });
  const emit = (e: SExpr): void => {
    (open.length > 0 ? open[open.length - 1]!.items : top).push(e);
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      i++;
      line++;
      lineStart = i;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f') i++;
    else if (c === ';') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '(') {
      open.push({ items: [], pos: posAt(i) });
      i++;
    } else if (c === ')') {
      const list = open.pop();
      if (!list) throw syntaxError("unexpected ')'", posAt(i));
      i++;
      emit({ kind: 'list', items: list.items, pos: list.pos });
    } else if (c === '|') {
      const pos = posAt(i);
      const end = text.indexOf('|', i + 1);
      if (end < 0) throw syntaxError("unterminated '|' symbol", pos);
      const body = text.slice(i + 1, end);
      for (let k = i + 1; k < end; k++) {
        if (text[k] === '\n') {
          line++;
          lineStart = k + 1;
        }
      }
      i = end + 1;
      emit({ kind: 'atom', text: body, quoted: true, pos });
    } else if (c === '"') {
      const pos = posAt(i);
      let k = i + 1;
      let body = '';
      for (;;) {
        if (k >= text.length) throw syntaxError('unterminated string literal', pos);
        if (text[k] === '"') {
          if (text[k + 1] === '"') {
            body += '"';
            k += 2;
            continue;
          }
          break;
        }
        if (text[k] === '\n') {
          line++;
          lineStart = k + 1;
        }
        body += text[k];
        k++;
      }
      i = k + 1;
      emit({ kind: 'string', text: body, pos });
    } else {
      const pos = posAt(i);
      let k = i;
      while (k < text.length && !/[\s()|";]/.test(text[k]!)) k++;
      emit({ kind: 'atom', text: text.slice(i, k), quoted: false, pos });
      i = k;
    }
  }
  if (open.length > 0) throw syntaxError("unbalanced '(': the file ends inside this expression", open[open.length - 1]!.pos);
  return top;
}

const SIMPLE_SYMBOL = /^[A-Za-z~!@$%^&*_+=<>.?/\-][A-Za-z0-9~!@$%^&*_+=<>.?/\-]*$/;

/** A symbol as SMT-LIB text: quoted with `|…|` unless it is a simple symbol. */
export function symbolText(name: string): string {
  return SIMPLE_SYMBOL.test(name) ? name : `|${name}|`;
}

/** `e` printed back as SMT-LIB text (without recursion). */
export function printSExpr(e: SExpr): string {
  const out: string[] = [];
  const stack: (SExpr | ')')[] = [e];
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (top === ')') {
      out.push(')');
      continue;
    }
    if (out.length > 0 && out[out.length - 1] !== '(') out.push(' ');
    if (top.kind === 'atom') out.push(top.quoted ? symbolText(top.text) : top.text);
    else if (top.kind === 'string') out.push(`"${top.text.replace(/"/g, '""')}"`);
    else {
      out.push('(');
      stack.push(')');
      for (let k = top.items.length - 1; k >= 0; k--) stack.push(top.items[k]!);
    }
  }
  return out.join('');
}

export function isAtom(e: SExpr | undefined, text?: string): e is Extract<SExpr, { kind: 'atom' }> {
  return e !== undefined && e.kind === 'atom' && (text === undefined || (e.text === text && !e.quoted));
}

export function isList(e: SExpr | undefined): e is Extract<SExpr, { kind: 'list' }> {
  return e !== undefined && e.kind === 'list';
}

/** The head symbol of a list (`and` in `(and a b)`), or null. */
export function headOf(e: SExpr): string | null {
  if (e.kind !== 'list') return null;
  const h = e.items[0];
  return h && h.kind === 'atom' ? h.text : null;
}
