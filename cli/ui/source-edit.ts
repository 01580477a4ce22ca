// The program text as the UI shows and edits it: where loops and assertions are (from the front
// end's control-flow graph), and adding or replacing an `assert(…)` line.
import type { Program } from '../../lib/index.js';
import type { SourceMark } from './protocol.js';

export interface SourceOutline {
  readonly loops: readonly SourceMark[];
  readonly asserts: readonly SourceMark[];
}

function unique(marks: SourceMark[]): SourceMark[] {
  const seen = new Set<string>();
  return marks.filter((m) => (seen.has(`${m.line}:${m.col}`) ? false : (seen.add(`${m.line}:${m.col}`), true))).sort((a, b) => a.line - b.line || a.col - b.col);
}

export function outline(program: Program): SourceOutline {
  const loops: SourceMark[] = [];
  const asserts: SourceMark[] = [];
  for (const proc of program.procedures.values()) {
    for (const loc of proc.locations) if (loc.loopHeader && loc.pos) loops.push({ line: loc.pos.line, col: loc.pos.col });
    for (const e of proc.edges) if (e.stmt.kind === 'assert') asserts.push({ line: e.pos.line, col: e.pos.col });
  }
  return { loops: unique(loops), asserts: unique(asserts) };
}

/** Inserts `assert(expr);` as a new line after `afterLine` (1-based), indented like that line. */
export function insertAssertion(source: string, afterLine: number, expr: string): string {
  const lines = source.split('\n');
  const at = Math.max(0, Math.min(afterLine, lines.length));
  const indent = /^\s*/.exec(lines[at - 1] ?? '')![0];
  const opensBlock = /\{\s*$/.test(lines[at - 1] ?? '');
  lines.splice(at, 0, `${indent}${opensBlock ? '  ' : ''}assert(${expr.trim()});`);
  return lines.join('\n');
}

/** The argument text of the first `assert(…)` on a line, with its span; null when there is none. */
export function assertionOn(source: string, line: number): { readonly expr: string; readonly start: number; readonly end: number } | null {
  const text = source.split('\n')[line - 1] ?? '';
  const m = /\b(?:__VERIFIER_assert|assert)\s*\(/.exec(text);
  if (!m) return null;
  let depth = 1;
  const start = m.index + m[0].length;
  for (let i = start; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return { expr: text.slice(start, i), start, end: i };
  }
  return null;
}

/** Replaces the argument of the assertion on `line`. */
export function replaceAssertion(source: string, line: number, expr: string): string {
  const found = assertionOn(source, line);
  if (!found) return source;
  const lines = source.split('\n');
  const text = lines[line - 1]!;
  lines[line - 1] = text.slice(0, found.start) + expr.trim() + text.slice(found.end);
  return lines.join('\n');
}
