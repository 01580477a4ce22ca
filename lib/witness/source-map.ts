// Source facts a witness needs that the IR does not keep: where each statement starts (waypoints point
// at statement starts), which branching statement owns a condition (branching waypoints point at the
// keyword), and which names the user declared (constraints may only name program variables).
import type { SourcePos } from '../ir/cfg.js';
import type { Expr, Stmt } from '../frontend/ast.js';
import { parseTranslationUnit } from '../frontend/parser.js';

export interface FunctionSource {
  /** Starts of statements and declarations, sorted by position. */
  readonly statementStarts: readonly SourcePos[];
  /** Position of a branch condition (or `*`) → the keyword position of its if/while/do/for. */
  readonly conditionOwner: ReadonlyMap<string, SourcePos>;
  /** Parameters and locals the user declared (C names). */
  readonly declared: ReadonlySet<string>;
}

export interface SourceMap {
  readonly functions: ReadonlyMap<string, FunctionSource>;
  readonly globals: ReadonlySet<string>;
}

export const posKey = (p: SourcePos): string => `${p.line}:${p.col}`;
const before = (a: SourcePos, b: SourcePos): boolean => a.line < b.line || (a.line === b.line && a.col <= b.col);

export function sourceMap(source: string, file: string): SourceMap {
  const tu = parseTranslationUnit(source, file);
  const functions = new Map<string, FunctionSource>();
  const globals = new Set<string>();
  for (const d of tu.decls) {
    if (d.kind === 'decl') {
      for (const v of d.declarators) if (v.type.kind !== 'function') globals.add(v.name);
      continue;
    }
    if (d.body === null) continue;
    const starts: SourcePos[] = [];
    const owner = new Map<string, SourcePos>();
    const declared = new Set<string>();
    if (d.type.kind === 'function') for (const p of d.type.params ?? []) if (p.name) declared.add(p.name);
    const visit = (s: Stmt): void => {
      if (s.kind !== 'block') starts.push(s.kind === 'decl' ? s.decl.pos : s.pos);
      switch (s.kind) {
        case 'block': s.body.forEach(visit); break;
        case 'decl': for (const v of s.decl.declarators) declared.add(v.name); break;
        case 'if':
          owner.set(posKey(conditionPos(s.test)), s.pos);
          visit(s.then);
          if (s.else) visit(s.else);
          break;
        case 'while':
        case 'do':
          owner.set(posKey(conditionPos(s.test)), s.pos);
          visit(s.body);
          break;
        case 'for':
          if (s.init?.kind === 'decl') for (const v of s.init.declarators) declared.add(v.name);
          if (s.test) owner.set(posKey(s.test.pos), s.pos);
          visit(s.body);
          break;
        case 'label': visit(s.body); break;
        default: break;
      }
    };
    d.body.forEach(visit);
    starts.sort((a, b) => a.line - b.line || a.col - b.col);
    functions.set(d.name, { statementStarts: starts, conditionOwner: owner, declared });
  }
  return { functions, globals };
}

function conditionPos(c: { kind: 'nondet'; pos: SourcePos } | { kind: 'expr'; expr: Expr }): SourcePos {
  return c.kind === 'nondet' ? c.pos : c.expr.pos;
}

/** The start of the statement an IR position belongs to: the last statement start at or before it. */
export function statementAt(fn: FunctionSource, pos: SourcePos): SourcePos | null {
  let found: SourcePos | null = null;
  for (const s of fn.statementStarts) {
    if (before(s, pos)) found = s;
    else break;
  }
  return found;
}
