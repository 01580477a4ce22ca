// A clause system printed back as SMT-LIB HORN text (parse → print → parse gives the same system).
import { printSExpr, symbolText } from './sexpr.js';
import type { ChcSystem } from './system.js';

export function printChc(system: ChcSystem): string {
  const lines = ['(set-logic HORN)'];
  for (const p of system.predicates.values()) lines.push(`(declare-fun ${symbolText(p.name)} (${p.sorts.join(' ')}) Bool)`);
  for (const c of system.clauses) lines.push(`(assert ${printSExpr(c.assertion)})`);
  lines.push('(check-sat)', '(exit)');
  return lines.join('\n') + '\n';
}
