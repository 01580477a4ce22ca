// Human-readable renderings of the IR: a text listing (what `farkas cfg` prints) and a Graphviz digraph
// with one cluster per procedure. Formulas and expressions print in C syntax (formula/linear toC).
import type { Edge, Location, Procedure, Program, Stmt } from './cfg.js';
import * as F from './formula.js';
import * as L from './linear.js';

export function printStmt(stmt: Stmt): string {
  switch (stmt.kind) {
    case 'assign':
      return `${stmt.target} := ${L.toC(stmt.expr)}`;
    case 'havoc':
      if (stmt.ghost) return `havoc ${stmt.target} (ghost)`;
      return stmt.range ? `havoc ${stmt.target} in [${stmt.range.lo}, ${stmt.range.hi}]` : `havoc ${stmt.target}`;
    case 'assume':
      return stmt.premise ? `premise no_overflow(${F.toC(stmt.cond)})` : `assume(${F.toC(stmt.cond)})`;
    case 'assert':
      return stmt.overflow ? `assert no_overflow(${F.toC(stmt.cond)})` : `assert(${F.toC(stmt.cond)})`;
    case 'call': {
      const call = `${stmt.callee}(${stmt.args.map((a) => L.toC(a)).join(', ')})`;
      return stmt.target === null ? call : `${stmt.target} := ${call}`;
    }
    case 'skip':
      return 'skip';
  }
}

/** `L3 -> L4  [line 7]  x := x + 1` */
export function printEdge(e: Edge): string {
  return `L${e.from} -> L${e.to}  [line ${e.pos.line}]  ${printStmt(e.stmt)}`;
}

function locationTags(proc: Procedure, loc: Location): string[] {
  const tags: string[] = [];
  if (loc.id === proc.entry) tags.push('entry');
  if (loc.id === proc.exit) tags.push('exit');
  if (loc.loopHeader) tags.push('loop header');
  if (loc.choice) tags.push('choice');
  if (loc.label && !tags.includes(loc.label) && !(loc.label === 'loop' && loc.loopHeader)) tags.push(loc.label);
  return tags;
}

export function printLocation(proc: Procedure, loc: Location): string {
  const tags = locationTags(proc, loc);
  let line = `L${loc.id}`;
  if (tags.length > 0) line += ` [${tags.join(', ')}]`;
  if (loc.pos) line += ` at line ${loc.pos.line}:${loc.pos.col}`;
  return line;
}

export function printProcedure(proc: Procedure): string {
  const out: string[] = [];
  const ret = proc.returnVar === null ? 'void' : `returns ${proc.returnVar}`;
  out.push(`procedure ${proc.name}(${proc.params.join(', ')}) ${ret}  [line ${proc.pos.line}]`);
  out.push(`  locals: ${proc.locals.length > 0 ? proc.locals.join(', ') : '(none)'}`);
  const byFrom = new Map<number, Edge[]>();
  for (const e of proc.edges) byFrom.set(e.from, [...(byFrom.get(e.from) ?? []), e]);
  for (const loc of proc.locations) {
    out.push(`  ${printLocation(proc, loc)}`);
    for (const e of byFrom.get(loc.id) ?? []) out.push(`    ${printEdge(e)}`);
  }
  return out.join('\n');
}

export function printProgram(program: Program): string {
  const out: string[] = [];
  out.push(`program ${program.file}  (entry: ${program.entry})`);
  out.push(`globals: ${program.globals.length > 0 ? program.globals.map((g) => `${g.name} = ${g.init}`).join(', ') : '(none)'}`);
  for (const proc of program.procedures.values()) {
    out.push('');
    out.push(printProcedure(proc));
  }
  return out.join('\n') + '\n';
}

function dotString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** Graphviz: one cluster per procedure; loop headers bold, choice locations diamonds, entry/exit doubled. */
export function programToDot(program: Program, only?: string): string {
  const out: string[] = [];
  out.push(`digraph ${dotString(program.file)} {`);
  out.push('  node [shape=circle, fontname="monospace", fontsize=10];');
  out.push('  edge [fontname="monospace", fontsize=10];');
  let cluster = 0;
  for (const proc of program.procedures.values()) {
    if (only !== undefined && proc.name !== only) continue;
    const node = (id: number) => dotString(`${proc.name}:L${id}`);
    out.push(`  subgraph cluster_${cluster++} {`);
    out.push(`    label=${dotString(`${proc.name}(${proc.params.join(', ')})`)};`);
    for (const loc of proc.locations) {
      const attrs = [`label=${dotString(`L${loc.id}`)}`];
      if (loc.choice) attrs.push('shape=diamond');
      else if (loc.id === proc.entry || loc.id === proc.exit) attrs.push('shape=doublecircle');
      if (loc.loopHeader) attrs.push('style=bold', 'color=blue');
      const tags = locationTags(proc, loc);
      if (tags.length > 0) attrs.push(`tooltip=${dotString(tags.join(', '))}`);
      out.push(`    ${node(loc.id)} [${attrs.join(', ')}];`);
    }
    for (const e of proc.edges) {
      out.push(`    ${node(e.from)} -> ${node(e.to)} [label=${dotString(printStmt(e.stmt))}];`);
    }
    out.push('  }');
  }
  out.push('}');
  return out.join('\n') + '\n';
}
