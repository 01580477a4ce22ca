// Test support only: runs one call-free procedure of the IR on given inputs, so front-end tests can
// check what the lowered code computes (C semantics of division, short-circuit evaluation, ++/--, …)
// independently of the project's interpreter. Havocs take the next input, except the front end's
// ghosts (quotients, wrap-around counts), whose value is solved for: the one value that lets the
// following assume pass.
import type { Procedure } from '../../ir/cfg.js';
import * as F from '../../ir/formula.js';
import * as L from '../../ir/linear.js';

export interface EvalResult {
  readonly outcome: 'exit' | 'assert-failed' | 'blocked';
  readonly env: ReadonlyMap<string, bigint>;
  readonly returned: bigint | null;
}

const SEARCH = 3n;

export function evaluateProcedure(proc: Procedure, inputs: readonly bigint[], initial: ReadonlyMap<string, bigint> = new Map()): EvalResult {
  const env = new Map(initial);
  const queue = [...inputs];
  const read = (v: string): bigint => {
    const x = env.get(v);
    if (x === undefined) throw new Error(`read of unset variable ${v}`);
    return x;
  };
  const out = (loc: number) => proc.edges.filter((e) => e.from === loc);
  const enabled = (loc: number): number[] =>
    out(loc)
      .filter((e) => e.stmt.kind !== 'assume' || F.evaluate(e.stmt.cond, read))
      .map((e) => e.id);
  let loc = proc.entry;
  for (let steps = 0; steps < 100000; steps++) {
    if (loc === proc.exit) return { outcome: 'exit', env, returned: proc.returnVar ? env.get(proc.returnVar) ?? null : null };
    const location = proc.locations[loc]!;
    const edges = out(loc);
    if (edges.length === 0) return { outcome: 'blocked', env, returned: null };
    let edgeId: number;
    if (location.choice) {
      const next = queue.shift();
      if (next === undefined) throw new Error('choice without input');
      edgeId = next !== 0n ? edges[0]!.id : edges[1]!.id;
    } else {
      const on = enabled(loc);
      if (on.length === 0) return { outcome: 'blocked', env, returned: null };
      if (on.length > 1) throw new Error(`L${loc}: ${on.length} enabled edges (branches must be exclusive)`);
      edgeId = on[0]!;
    }
    const edge = proc.edges[edgeId]!;
    const s = edge.stmt;
    switch (s.kind) {
      case 'assign':
        env.set(s.target, L.evaluate(s.expr, read));
        break;
      case 'havoc':
        if (s.ghost) {
          // Exactly one value satisfies the assume that follows: try the integers around each bound
          // its atoms give (a bound of an atom c*q + r >= 0 is -r / c).
          const next = out(edge.to);
          if (next.length !== 1 || next[0]!.stmt.kind !== 'assume') throw new Error(`ghost ${s.target} is not followed by its assume`);
          const candidates = new Set<bigint>();
          const atoms: F.Formula[] = [];
          const collect = (f: F.Formula): void => {
            if (f.kind === 'atom') atoms.push(f);
            else if (f.kind === 'and' || f.kind === 'or') f.args.forEach(collect);
            else if (f.kind === 'not') collect(f.arg);
          };
          collect(next[0]!.stmt.cond);
          for (const atom of atoms) {
            if (atom.kind !== 'atom') continue;
            const c = L.coefficientOf(atom.expr, s.target);
            if (c === 0n) continue;
            env.set(s.target, 0n);
            const r = L.evaluate(atom.expr, read);
            for (let d = -SEARCH; d <= SEARCH; d++) candidates.add(-r / c + d);
          }
          const fits = [...candidates].filter((v) => {
            env.set(s.target, v);
            return F.evaluate(next[0]!.stmt.kind === 'assume' ? next[0]!.stmt.cond : F.TRUE, read);
          });
          if (fits.length !== 1) throw new Error(`ghost ${s.target}: ${fits.length} candidate values`);
          env.set(s.target, fits[0]!);
        } else {
          const next = queue.shift();
          if (next === undefined) throw new Error(`havoc ${s.target} without input`);
          if (s.range && (next < s.range.lo || next > s.range.hi)) throw new Error(`input ${next} outside range of ${s.target}`);
          env.set(s.target, next);
        }
        break;
      case 'assert':
        if (!F.evaluate(s.cond, read)) return { outcome: 'assert-failed', env, returned: null };
        break;
      case 'call':
        throw new Error('evaluateProcedure does not follow calls');
      default:
        break;
    }
    loc = edge.to;
  }
  throw new Error('step limit');
}
