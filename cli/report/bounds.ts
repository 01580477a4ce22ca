// Text and JSON renderings of bounds results, shared by the command and the UI.
import type { BoundsResult } from '../../lib/index.js';
import { fmt, values } from './conditions.js';

export function formatBounds(file: string, r: BoundsResult): string {
  const lines: string[] = [];
  lines.push(`${file}: function ${r.function}(${r.parameters.join(', ')}): ${new Set(r.loops.map((l) => l.line)).size} loop(s)`);
  if (r.loops.length === 0 && r.procedures.length === 0) lines.push(`no loops${r.calleesWithLoops.length === 0 ? ': every run of this function ends after finitely many steps' : ''}`);
  for (const l of r.loops) {
    const under = l.precondition === '1' ? '' : ` if ${l.precondition}${l.caseSplit ? ' (one case of a split: together the cases cover every input)' : ''}`;
    if (!l.bound) {
      lines.push(`loop at line ${l.line}: no bound (${l.reason ?? 'unknown'})`);
      continue;
    }
    lines.push(`loop at line ${l.line}: at most ${atLeastZero(l.bound)} iterations${under}${l.locallyWeakest === undefined ? '' : l.locallyWeakest ? ' (precondition locally weakest)' : ' (precondition not shown locally weakest)'}`);
    lines.push(`  certified: ${l.certified ? 'yes (z3, integer arithmetic)' : 'no'}${l.invariants.length > 0 ? ', with invariants:' : ''}`);
    for (const inv of l.invariants) lines.push(`    line ${inv.line}: ${inv.expression}`);
    if (l.tight) lines.push(`  tight on ${fmt(l.tight.input) || 'the default run'}${l.tight.nondet.length > 0 ? ` (nondet ${l.tight.nondet.join(',')})` : ''}: ${l.tight.iterations} iteration${l.tight.iterations === 1n ? '' : 's'}`);
  }
  if (r.total && r.loops.length > 1) lines.push(`all loops together: at most ${r.total} iterations per call (each loop's bound times the iterations of the loop around it)`);
  for (const c of r.calleesWithLoops) lines.push(`function ${c} (called): its loops are not bounded here (farkas bounds --function ${c})`);
  for (const p of r.procedures) {
    if (!p.bound) {
      lines.push(`procedure ${p.procedure}: no bound (${p.reason ?? 'unknown'})`);
      continue;
    }
    lines.push(`procedure ${p.procedure}: at most ${p.bound} calls per call of ${p.function}${p.precondition === '1' ? '' : ` if ${p.precondition}`}`);
    lines.push(`  certified: yes (z3, integer arithmetic), with summaries:`);
    for (const s of p.summaries) lines.push(`    ${s}`);
    if (p.tight) lines.push(`  tight on ${fmt(p.tight.input) || 'the default run'}: ${p.tight.iterations} call${p.tight.iterations === 1n ? '' : 's'}`);
  }
  lines.push(`search: ${r.runs} concrete runs (${r.nonTerminatingRuns} did not return within the step budget), ${r.stats.proofAttempts} proof attempts, ${r.stats.satCalls} SAT calls, largest ${r.stats.maxClauses} clauses, ${(r.millis / 1000).toFixed(1)} s`);
  return lines.join('\n') + '\n';
}

/** A loop that is not entered runs 0 times whatever its bound's value: `max(0, n - x)`, unless the
 * bound is a constant that is not negative. */
export function atLeastZero(bound: string): string {
  return /^\d+$/.test(bound) ? bound : `max(0, ${bound})`;
}

export function boundsJson(file: string, r: BoundsResult): Record<string, unknown> {
  return {
    file,
    function: r.function,
    parameters: r.parameters,
    loops: r.loops.map((l) => ({
      function: l.function,
      line: l.line,
      bound: l.bound,
      precondition: l.precondition,
      certified: l.certified,
      ...(l.caseSplit ? { caseSplit: true } : {}),
      ...(l.locallyWeakest !== undefined ? { locallyWeakest: l.locallyWeakest } : {}),
      invariants: l.invariants,
      ...(l.tight ? { tight: { input: values(l.tight.input), nondet: l.tight.nondet.map(String), iterations: l.tight.iterations.toString() } } : {}),
      ...(l.reason ? { reason: l.reason } : {}),
    })),
    ...(r.total ? { total: r.total } : {}),
    calleesWithLoops: r.calleesWithLoops,
    procedures: r.procedures.map((p) => ({
      function: p.function,
      procedure: p.procedure,
      bound: p.bound,
      precondition: p.precondition,
      certified: p.certified,
      summaries: p.summaries,
      ...(p.tight ? { tight: { input: values(p.tight.input), iterations: p.tight.iterations.toString() } } : {}),
      ...(p.reason ? { reason: p.reason } : {}),
    })),
    runs: r.runs,
    nonTerminatingRuns: r.nonTerminatingRuns,
    stats: r.stats,
    millis: r.millis,
  };
}
