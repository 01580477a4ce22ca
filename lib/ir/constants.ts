// The constants a program writes: the literals of its assignments, branches, assumptions and
// assertions (and the bounds of its typed reads), in absolute value. A result stated with one of
// them (or one off: `i < 1000` gives `i <= 999`) speaks the program's own terms.
import type { Procedure } from './cfg.js';
import type { Formula } from './formula.js';
import type { Linear } from './linear.js';

export function constantsOf(proc: Procedure): Set<bigint> {
  const found = new Set<bigint>();
  const linear = (e: Linear) => {
    found.add(abs(e.constant));
    for (const k of e.coeffs.values()) found.add(abs(k));
  };
  const formula = (f: Formula): void => {
    switch (f.kind) {
      case 'atom': return linear(f.expr);
      case 'not': return formula(f.arg);
      case 'and':
      case 'or': return f.args.forEach(formula);
      default: return;
    }
  };
  for (const { stmt } of proc.edges) {
    switch (stmt.kind) {
      case 'assign': linear(stmt.expr); break;
      case 'assume':
      case 'assert': formula(stmt.cond); break;
      case 'call': stmt.args.forEach(linear); break;
      case 'havoc':
        if (stmt.range) {
          found.add(abs(stmt.range.lo));
          found.add(abs(stmt.range.hi));
        }
        break;
      default: break;
    }
  }
  for (const r of proc.paramRanges?.values() ?? []) {
    found.add(abs(r.lo));
    found.add(abs(r.hi));
  }
  return found;
}

function abs(k: bigint): bigint {
  return k < 0n ? -k : k;
}
