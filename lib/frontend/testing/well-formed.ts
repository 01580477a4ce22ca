// Test support only: structural invariants every Program from the front end must satisfy. Returns the
// list of violations (empty when well formed) so a test can print them.
import type { Program } from '../../ir/cfg.js';
import * as F from '../../ir/formula.js';
import * as L from '../../ir/linear.js';

export function wellFormednessProblems(program: Program): string[] {
  const problems: string[] = [];
  const globals = new Set(program.globals.map((g) => g.name));
  if (!program.procedures.has(program.entry)) problems.push(`entry ${program.entry} is not a procedure`);
  for (const proc of program.procedures.values()) {
    const where = (s: string) => problems.push(`${proc.name}: ${s}`);
    proc.locations.forEach((l, i) => l.id !== i && where(`location ${i} has id ${l.id}`));
    proc.edges.forEach((e, i) => e.id !== i && where(`edge ${i} has id ${e.id}`));
    const n = proc.locations.length;
    if (proc.entry < 0 || proc.entry >= n || proc.exit < 0 || proc.exit >= n) where('entry/exit out of range');
    const params = new Set(proc.params);
    const locals = new Set(proc.locals);
    if (params.size !== proc.params.length) where('duplicate parameter names');
    if (locals.size !== proc.locals.length) where('duplicate local names');
    for (const p of params) if (globals.has(p) || locals.has(p)) where(`parameter ${p} clashes`);
    for (const l of locals) if (globals.has(l)) where(`local ${l} clashes with a global`);
    if (proc.returnVar !== null && !locals.has(proc.returnVar)) where(`return variable ${proc.returnVar} is not a local`);
    const scope = new Set([...globals, ...params, ...locals]);
    const checkVars = (vars: Iterable<string>, e: number) => {
      for (const v of vars) if (!scope.has(v)) where(`edge ${e} mentions unknown variable ${v}`);
    };
    for (const e of proc.edges) {
      if (e.from < 0 || e.from >= n || e.to < 0 || e.to >= n) where(`edge ${e.id} out of range`);
      const s = e.stmt;
      if (s.kind === 'assign') checkVars([s.target, ...L.variablesOf(s.expr)], e.id);
      if (s.kind === 'havoc') checkVars([s.target], e.id);
      if (s.kind === 'assume' || s.kind === 'assert') checkVars(F.variablesOf(s.cond), e.id);
      if (s.kind === 'call') {
        checkVars([...(s.target ? [s.target] : []), ...s.args.flatMap((a) => L.variablesOf(a))], e.id);
        const callee = program.procedures.get(s.callee);
        if (!callee) where(`edge ${e.id} calls unknown ${s.callee}`);
        else if (callee.params.length !== s.args.length) where(`edge ${e.id} passes ${s.args.length} arguments to ${s.callee}`);
      }
    }
    for (const loc of proc.locations) {
      const out = proc.edges.filter((e) => e.from === loc.id);
      if (loc.id === proc.exit && out.length > 0) where('exit has outgoing edges');
      if (loc.choice) {
        if (out.length !== 2 || out.some((e) => e.stmt.kind !== 'skip')) where(`choice L${loc.id} needs exactly two skip edges`);
      } else if (out.length > 1 && out.some((e) => e.stmt.kind !== 'assume')) {
        where(`L${loc.id} branches with a non-assume edge`);
      }
      if (loc.loopHeader && (loc.pos === undefined || loc.label !== 'loop')) where(`loop header L${loc.id} lacks pos/label`);
    }
    // Every location is reachable from the entry (the front end prunes dead code), exit excepted.
    const reached = new Set([proc.entry]);
    const work = [proc.entry];
    while (work.length > 0) {
      const l = work.pop()!;
      for (const e of proc.edges) if (e.from === l && !reached.has(e.to)) reached.add(e.to), work.push(e.to);
    }
    for (const loc of proc.locations) if (!reached.has(loc.id) && loc.id !== proc.exit) where(`L${loc.id} unreachable`);
  }
  return problems;
}
