// Text and JSON renderings of wp, sp, nonterm and cex results, shared by the commands and the UI.
import { type Program, type Coverage, FURTHER_ANSWER_MIN_QUERIES, type NontermResult, type CexResult, formatRunResult, runResultToJson, type ConditionAnswer, type ConditionStats, type IncompleteSearch, type NeighbourEvidence, type SpResult, type WpResult } from '../../lib/index.js';
import { rankingJson, rankingLines } from './ranking.js';
import { nondetReadsIn, nondetReadsJson } from './nondet.js';

export const values = (m: ReadonlyMap<string, bigint> | undefined): Record<string, string> | undefined => (m ? Object.fromEntries([...m].map(([k, v]) => [k, v.toString()])) : undefined);

export function fmt(m: ReadonlyMap<string, bigint> | undefined): string {
  return m ? [...m].map(([k, v]) => `${k}=${v}`).join(' ') : '';
}

export const INCOMPLETE_WP = { inputs: 'safe', answers: 'precondition' };

export const INCOMPLETE_CEX = { inputs: 'failing', answers: 'condition' };

export function incompleteText(i: IncompleteSearch, words: typeof INCOMPLETE_WP): string {
  return `${i.uncoveredInputs} sampled ${words.inputs} input(s) lie outside every ${words.answers}; no further one was found within ${i.budgetQueries} solver queries (each further ${words.answers} gets as many as the first took, at least ${FURTHER_ANSWER_MIN_QUERIES})`;
}

function incompleteJson(i: IncompleteSearch, words: typeof INCOMPLETE_WP): Record<string, unknown> {
  return { uncoveredInputs: i.uncoveredInputs, budgetQueries: i.budgetQueries, note: incompleteText(i, words) };
}

function neighbourJson(n: NeighbourEvidence): Record<string, unknown> {
  return {
    expression: n.expression,
    move: n.move,
    ...(n.input ? { input: values(n.input) } : {}),
    ...(n.state ? { state: values(n.state) } : {}),
    ...(n.nondet ? { nondet: n.nondet.map(String) } : {}),
    ...(n.line !== undefined ? { line: n.line } : {}),
    replayed: n.replayed,
    ...(n.note ? { note: n.note } : {}),
  };
}

function answerJson(a: ConditionAnswer): Record<string, unknown> {
  return { expression: a.expression, certified: a.certified, locallyOptimal: a.locallyOptimal, invariants: a.invariants, neighbours: a.neighbours.map(neighbourJson) };
}

function statsJson(s: ConditionStats): Record<string, unknown> {
  const clauses = s.queries.reduce((a, q) => Math.max(a, q.clauses), 0);
  return { solverCalls: s.queries.length, iterations: s.iterations, concreteRuns: s.concreteRuns, maxClauses: clauses, millis: s.millis, queries: s.queries };
}

/** A condition as shown to a reader: `1` (the C expression of true) is every input. The JSON keeps the
 * C expression. */
export function shownCondition(expression: string): string {
  return expression === '1' ? '1 (true: every input)' : expression;
}

export function answerLines(a: ConditionAnswer, what: 'precondition' | 'postcondition', index?: number, witness: (n: NeighbourEvidence) => string = (n) => `fails at line ${n.line} on ${fmt(n.input)}`): string[] {
  const lines: string[] = [];
  const label = index !== undefined ? `${what} ${index + 1}` : what;
  lines.push(`${label}: ${shownCondition(a.expression)}`);
  lines.push(`  certified: ${a.certified ? 'yes (z3, integer arithmetic)' : 'no'}${a.invariants.length > 0 ? ', with invariants:' : ''}`);
  for (const inv of a.invariants) lines.push(`    line ${inv.line}: ${inv.expression}`);
  const refuted = a.neighbours.filter((n) => n.replayed).length;
  const counted = a.neighbours.filter((n) => !n.note?.startsWith('equivalent')).length;
  lines.push(`  neighbours: ${refuted}/${counted} refuted by replayed runs${a.locallyOptimal ? ` (locally ${what === 'precondition' ? 'weakest' : 'strongest'})` : ''}`);
  for (const n of a.neighbours) {
    let why: string;
    if (n.replayed && n.input && what === 'precondition') why = `${witness(n)}${n.nondet && n.nondet.length > 0 ? ` (nondet ${n.nondet.join(',')})` : ''}`;
    else if (n.replayed && n.state) why = `violated by reachable ${fmt(n.state)} (inputs ${fmt(n.input)}${n.nondet && n.nondet.length > 0 ? `, nondet ${n.nondet.slice(0, 12).join(',')}${n.nondet.length > 12 ? ',…' : ''}` : ''})`;
    else why = n.note ?? 'not refuted';
    lines.push(`    ${n.expression}: ${why}`);
  }
  return lines;
}

/** "covers 981 of 1,045 observed failing inputs" (all of them: "covers every one of …"). */
export function coverageText(c: Coverage, kind: 'safe' | 'failing'): string {
  const n = (k: number) => k.toLocaleString('en-US');
  return c.covered === c.observed
    ? `coverage: covers every one of the ${n(c.observed)} observed ${kind} input${c.observed === 1 ? '' : 's'}`
    : `coverage: covers ${n(c.covered)} of ${n(c.observed)} observed ${kind} inputs (${n(c.observed - c.covered)} outside every answer)`;
}

export function statsLine(s: ConditionStats): string {
  const clauses = s.queries.reduce((a, q) => Math.max(a, q.clauses), 0);
  return `search: ${s.queries.length} solver calls, ${s.iterations} iterations, ${s.concreteRuns} concrete runs, largest query ${clauses} clauses, ${(s.millis / 1000).toFixed(1)} s`;
}


export function formatWp(file: string, r: WpResult): string {
  const lines = [`${file}: function ${r.function}(${r.parameters.join(', ')}): ${r.preconditions.length} precondition(s) [${r.strategy}]`];
  r.preconditions.forEach((a, i) => lines.push(...answerLines(a, 'precondition', i)));
  if (r.reason) lines.push(`reason: ${r.reason}`);
  if (r.coverage && r.preconditions.length > 0) lines.push(coverageText(r.coverage, 'safe'));
  if (r.incomplete) lines.push(`incomplete: ${incompleteText(r.incomplete, INCOMPLETE_WP)}`);
  lines.push(statsLine(r.stats));
  return lines.join('\n') + '\n';
}

export function formatSp(file: string, r: SpResult): string {
  const lines = [`${file}: function ${r.function}, ${r.at === 'exit' ? 'at the exit' : `at line ${r.line}`}, over ${r.variables.join(', ')}`];
  if (r.postcondition) lines.push(...answerLines(r.postcondition, 'postcondition'));
  else lines.push(`no postcondition: ${r.reason}`);
  lines.push(statsLine(r.stats));
  return lines.join('\n') + '\n';
}

export function formatNonterm(file: string, r: NontermResult): string {
  const lines = [`${file}: function ${r.function}: ${r.verdict}`];
  r.conditions.forEach((c, i) => {
    lines.push(...answerLines(c, 'precondition', i, (n) => `returns on ${fmt(n.input)}`));
    if (c.input) lines.push(`  runs forever from ${fmt(c.input)}; first loop-head states: ${c.iterationsShown.map((s) => `[${fmt(s.values)}]`).join(' ')}`);
  });
  for (const l of r.bounds ?? []) lines.push(`  loop at line ${l.line}: at most ${l.bound} iterations (certified)`);
  lines.push(...rankingLines(r));
  const reads = nondetReadsIn(r.nondetInputs ?? [], (r.bounds ?? []).map((l) => `${l.bound} ${l.precondition}`).join(' '));
  if (reads.length > 0) lines.push(`  where ${reads.join('; ')}`);
  if (r.reason) lines.push(`reason: ${r.reason}`);
  lines.push(statsLine(r.stats));
  return lines.join('\n') + '\n';
}

/** With `trace`, each condition's replayed run is shown step by step (it needs the program). */
export function formatCex(file: string, r: CexResult, trace?: Program): string {
  const lines = [`${file}: function ${r.function}: ${r.conditions.length} failing condition(s)`];
  r.conditions.forEach((c, i) => {
    lines.push(`condition ${i + 1}: ${c.expression}`);
    lines.push(`  certified: ${c.certified ? 'yes (the instrumented program cannot return with err == 0 under it)' : 'no'}`);
    lines.push(`  replayed: ${fmt(c.input)}${c.nondet.length > 0 ? ` (nondet ${c.nondet.join(',')})` : ''} fails the assertion at line ${c.line}`);
    if (trace) lines.push(formatRunResult(c.run, trace, { trace: 'full' }).replace(/^/gm, '    '));
  });
  for (const d of r.dropped) lines.push(`dropped: ${d.expression} (${d.reason})`);
  if (r.reason) lines.push(`reason: ${r.reason}`);
  if (r.provedSafe && r.provedSafe.invariants.length > 0) {
    lines.push('invariants (certified by z3 over the integers):');
    for (const inv of r.provedSafe.invariants) lines.push(`  line ${inv.line}: ${inv.expression}`);
  }
  if (r.coverage && r.conditions.length > 0) lines.push(coverageText(r.coverage, 'failing'));
  if (r.incomplete) lines.push(`incomplete: ${incompleteText(r.incomplete, INCOMPLETE_CEX)}`);
  lines.push(statsLine(r.stats));
  return lines.join('\n') + '\n';
}

export function wpJson(file: string, r: WpResult): Record<string, unknown> {
  return {
    file,
    function: r.function,
    strategy: r.strategy,
    parameters: r.parameters,
    preconditions: r.preconditions.map(answerJson),
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.coverage ? { coverage: r.coverage } : {}),
    ...(r.incomplete ? { incomplete: incompleteJson(r.incomplete, INCOMPLETE_WP) } : {}),
    stats: statsJson(r.stats),
  };
}

export function spJson(file: string, r: SpResult): Record<string, unknown> {
  return {
    file,
    function: r.function,
    at: r.at,
    line: r.line,
    variables: r.variables,
    postcondition: r.postcondition ? answerJson(r.postcondition) : null,
    ...(r.reason ? { reason: r.reason } : {}),
    stats: statsJson(r.stats),
  };
}

export function nontermJson(file: string, r: NontermResult): Record<string, unknown> {
  return {
    file,
    function: r.function,
    verdict: r.verdict,
    conditions: r.conditions.map((c) => ({
      ...answerJson(c),
      ...(c.input ? { input: values(c.input) } : {}),
      iterations_shown: c.iterationsShown.map((s) => ({ line: s.line, values: values(s.values) })),
    })),
    ...(r.bounds ? { bounds: r.bounds.map((l) => ({ function: l.function, line: l.line, bound: l.bound, certified: l.certified })) } : {}),
    ...(r.nondetInputs ? { nondetInputs: nondetReadsJson(r.nondetInputs) } : {}),
    ...rankingJson(r),
    ...(r.reason ? { reason: r.reason } : {}),
    stats: statsJson(r.stats),
  };
}

export function cexJson(file: string, r: CexResult): Record<string, unknown> {
  return {
    file,
    function: r.function,
    conditions: r.conditions.map((c) => ({
      expression: c.expression,
      certified: c.certified,
      input: values(c.input),
      nondet: c.nondet.map(String),
      line: c.line,
      replayed: c.replayed,
      trace: runResultToJson(c.run),
    })),
    dropped: r.dropped,
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.provedSafe ? { provedSafe: { invariants: r.provedSafe.invariants.map((i) => ({ line: i.line, expression: i.expression })) } } : {}),
    ...(r.coverage ? { coverage: r.coverage } : {}),
    ...(r.incomplete ? { incomplete: incompleteJson(r.incomplete, INCOMPLETE_CEX) } : {}),
    stats: statsJson(r.stats),
  };
}
