// The Search pane's progress, from the library's events: the constraint engine's steps (verify, and
// the proofs of bounds and of termination) and the condition searches' queries (wp, sp, cex, nonterm).
// One job may run several searches one after the other (bounds proves candidate after candidate, then
// may run wp), each numbering its steps from 0; the pane numbers them on, one row per step.
import type { ConditionEvent, ProgressEvent } from '../../../lib/index.js';
import type { Emit, SearchEvent } from '../protocol.js';
import { answeredBy } from '../../report/answered-by.js';

export function widthsText(w: { coefficient: number; constant: number; multiplier: number }): string {
  return `${w.coefficient}/${w.constant}/${w.multiplier}`;
}

/** Where each search's step (or query) goes among the pane's rows. A search whose step numbers start
 * again (a start event for a number it already has) is the next search: its rows follow the earlier
 * ones rather than overwrite them. */
export class RowNumbers {
  private next = 0;
  private readonly current = new Map<string, Map<number, number>>();

  /** The row of a step that starts; `source` separates searches that may alternate (proofs, queries). */
  start(source: string, index: number): number {
    const rows = this.current.get(source);
    const fresh = !rows || rows.has(index) ? new Map<number, number>() : rows;
    this.current.set(source, fresh);
    fresh.set(index, this.next);
    return this.next++;
  }

  /** The row of a step that has started (a later event of it). */
  of(source: string, index: number): number {
    return this.current.get(source)?.get(index) ?? this.start(source, index);
  }

  /** The next event of `source` belongs to a new search (e.g. wp reported its sampling). */
  restart(source: string): void {
    this.current.delete(source);
  }
}

/** One constraint-engine event as a Search-pane event; `prefix` names the proof (bounds: its line
 * and bound), `rows` numbers its steps. */
export function stepSearchEvent(e: ProgressEvent, rows: RowNumbers, prefix = ''): SearchEvent {
  const source = 'proof';
  switch (e.kind) {
    case 'prepared':
      return { kind: 'phase', text: `${prefix}${e.cutpoints} cut-points, ${e.verificationConditions} VCs; sampling runs` };
    case 'step-start':
      return { kind: 'row-start', index: rows.start(source, e.index), template: e.template, widths: widthsText(e.widths), ...(prefix ? { purpose: `${prefix}step ${e.index + 1} of ${e.total}` } : {}) };
    case 'step-encoded':
      return { kind: 'row-encoded', index: rows.of(source, e.index), variables: e.variables, clauses: e.clauses };
    case 'step-done':
      return { kind: 'row-done', index: rows.of(source, e.index), variables: e.stats.variables, clauses: e.stats.clauses, satMillis: e.stats.satMillis, result: `${e.stats.result}${answeredBy(e.stats.backend)}`, ...(e.stats.reason ? { reason: e.stats.reason } : {}) };
    case 'checking':
      return { kind: 'phase', text: `${prefix}checking the certificate with z3` };
  }
}

const DEFAULT_MAX_ANSWERS = 3;

/** "7" or "7/2" as numerator and denominator; null for anything else. */
function fraction(text: string): readonly [bigint, bigint] | null {
  const m = /^(-?\d+)(?:\/(\d+))?$/.exec(text);
  return m && m[2] !== '0' ? [BigInt(m[1]!), BigInt(m[2] ?? '1')] : null;
}

/** Maps a condition search's events (wp, sp, cex, nonterm, and the proofs inside bounds) to
 * Search-pane rows, phases and bars; the binary search's bar shrinks with its interval.
 * `maxAnswers`: the most answers the search reports (the answers bar's end). */
export function conditionEvents(emit: Emit, maxAnswers = DEFAULT_MAX_ANSWERS, rows = new RowNumbers()): (e: ConditionEvent) => void {
  const initialWidth = new Map<string, bigint>();
  let answers = 0;
  const send = (event: SearchEvent) => emit({ type: 'search', event });
  const phase = (text: string) => send({ kind: 'phase', text });
  return (e) => {
    switch (e.kind) {
      case 'sampled':
        // Each wp search reports its sampling first: its queries count from 0 again.
        rows.restart('query');
        phase(`sampled ${e.passing} passing, ${e.failing} failing inputs`);
        return;
      case 'query-start':
        send({ kind: 'row-start', index: rows.start('query', e.index), template: e.template, widths: `${e.conjuncts} conj`, purpose: e.purpose });
        return;
      case 'query-done':
        send({ kind: 'row-done', index: rows.of('query', e.index), variables: e.stats.variables, clauses: e.stats.clauses, satMillis: e.stats.satMillis, result: e.stats.result, ...(e.stats.reason ? { reason: e.stats.reason } : {}) });
        return;
      case 'answer':
        // An answer a later one contains is dropped by the search: more may be found than are reported.
        answers++;
        phase(`answer: ${e.expression}`);
        send({ kind: 'bar', label: answers <= maxAnswers ? `answers ${answers}/${maxAnswers}` : `answers ${answers} found (at most ${maxAnswers} reported)`, fraction: Math.min(1, answers / maxAnswers) });
        return;
      case 'binary-step': {
        // The bounds are integers or fractions in units of the search's denominator ("3/2").
        const low = fraction(e.low);
        const high = fraction(e.high);
        if (!low || !high) return;
        const width = high[0] * low[1] - low[0] * high[1];
        const first = initialWidth.get(e.entry) ?? width;
        initialWidth.set(e.entry, first);
        // Display only: bits of the interval left, relative to the start.
        const bits = (w: bigint) => (w <= 0n ? 0 : w.toString(2).length);
        const done = bits(first) === 0 ? 1 : 1 - bits(width) / bits(first);
        send({ kind: 'bar', label: `${e.entry} in [${e.low}, ${e.high}]`, fraction: done });
        return;
      }
      case 'reached':
        phase(`${e.states} reached states at line ${e.line}; trying the postcondition they suggest`);
        return;
      case 'certifying':
        phase(`certifying ${e.expression}${e.from === 'observed' ? ' (suggested by the reached states)' : ''}`);
        return;
      case 'neighbours':
        phase(`${e.expression}: looking for a replayed witness against each of ${e.count} neighbours`);
        return;
      case 'bound-proof':
        send(stepSearchEvent(e.event, rows, `line ${e.line}, at most ${e.bound}: `));
        return;
      case 'ranking-proof':
        send(stepSearchEvent(e.event, rows, `line ${e.line}, ranked by ${e.ranking}: `));
        return;
    }
  };
}
