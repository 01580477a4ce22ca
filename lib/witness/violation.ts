// Violation witnesses, SV-COMP format 2.0: one `violation_sequence` entry, a sequence of segments
// that each end in one `follow` waypoint, built from the interpreter's replay of the counterexample:
//  - assumption waypoints fix the concrete values of non-deterministic choices: after a statement
//    that consumed a nondet value, `x == v` for each program variable it set, located at the start of
//    the next statement run (assumptions are evaluated just before their location);
//  - branching waypoints record the direction of each if/while/do/for condition that was evaluated;
//  - the final segment's target waypoint is the failing assertion.
// Entry-function parameters (farkas' own benchmarks take inputs as parameters) become assumptions at
// the first statement.
import type { Program, SourcePos } from '../ir/cfg.js';
import type { Counterexample } from '../result.js';
import type { TraceStep } from '../interpreter/types.js';
import { runProgram } from '../interpreter/index.js';
import { witnessFileName, type WitnessMetadata } from './metadata.js';
import { posKey, statementAt, type SourceMap } from './source-map.js';

export interface WaypointLocation {
  readonly file_name: string;
  readonly line: number;
  readonly column: number;
  readonly function: string;
}

export type Waypoint =
  | { readonly type: 'assumption'; readonly action: 'follow'; readonly location: WaypointLocation; readonly constraint: { readonly value: string; readonly format: 'c_expression' } }
  | { readonly type: 'branching'; readonly action: 'follow'; readonly location: WaypointLocation; readonly constraint: { readonly value: 'true' | 'false' } }
  | { readonly type: 'target'; readonly action: 'follow'; readonly location: WaypointLocation };

export interface ViolationSequenceEntry {
  readonly entry_type: 'violation_sequence';
  readonly metadata: WitnessMetadata;
  readonly content: ReadonlyArray<{ readonly segment: ReadonlyArray<{ readonly waypoint: Waypoint }> }>;
}

/** Waypoints are few per step, but a long run (a loop of a million iterations) must not produce a
 * witness nobody can read; past this the witness is not written. */
const MAX_WAYPOINTS = 10_000;

export function violationEntry(
  metadata: WitnessMetadata,
  program: Program,
  file: string,
  fn: string,
  counterexample: Counterexample,
  map: SourceMap,
): { entry: ViolationSequenceEntry; waypoints: number } | { reason: string } {
  const replay = runProgram(program, {
    entry: fn,
    inputs: counterexample.inputs,
    nondet: counterexample.nondet,
    nondetDefault: null,
    recordTrace: true,
  });
  if (replay.outcome.kind !== 'assertion-failed' || !replay.trace) {
    return { reason: `the counterexample did not replay to a failing assertion (${replay.outcome.kind})` };
  }
  const waypoints = waypointsOf(replay.trace, map, program, fn, counterexample.inputs, witnessFileName(file));
  const target = map.functions.get(replay.outcome.procedure);
  const targetPos = target ? statementAt(target, replay.outcome.pos) ?? replay.outcome.pos : replay.outcome.pos;
  waypoints.push({ type: 'target', action: 'follow', location: location(witnessFileName(file), targetPos, replay.outcome.procedure) });
  if (waypoints.length > MAX_WAYPOINTS) return { reason: `the run is too long for a readable witness (${waypoints.length} waypoints)` };
  return {
    entry: { entry_type: 'violation_sequence', metadata, content: waypoints.map((waypoint) => ({ segment: [{ waypoint }] })) },
    waypoints: waypoints.length,
  };
}

function location(file: string, pos: SourcePos, fn: string): WaypointLocation {
  return { file_name: file, line: pos.line, column: pos.col, function: fn };
}

function waypointsOf(trace: readonly TraceStep[], map: SourceMap, program: Program, fn: string, inputs: ReadonlyMap<string, bigint>, file: string): Waypoint[] {
  const out: Waypoint[] = [];
  const isProgramVariable = (proc: string, v: string): boolean =>
    !v.startsWith('__') && ((map.functions.get(proc)?.declared.has(v) ?? false) || map.globals.has(v));
  // Pending equalities: set by a statement that consumed nondet values, stated at the next statement.
  let pending: { procedure: string; depth: number; statement: string; values: Map<string, bigint> } | null = null;
  if (inputs.size > 0) pending = { procedure: fn, depth: 0, statement: '', values: new Map(inputs) };
  for (const step of trace) {
    const fnSource = map.functions.get(step.procedure);
    if (!fnSource) continue; // builtins have no source statements
    const statement = statementAt(fnSource, step.pos);
    const key = statement ? posKey(statement) : '';
    if (pending && step.kind === 'edge' && step.procedure === pending.procedure && step.depth === pending.depth && key !== pending.statement && statement) {
      const value = [...pending.values].map(([v, x]) => `${v} == ${x}`).join(' && ');
      if (value !== '') out.push({ type: 'assumption', action: 'follow', location: location(file, statement, step.procedure), constraint: { value, format: 'c_expression' } });
      pending = null;
    }
    if (step.kind !== 'edge') continue;
    if (step.nondet && step.nondet.length > 0 && !isChoice(program, step)) {
      if (!pending || pending.statement !== key || pending.procedure !== step.procedure) pending = { procedure: step.procedure, depth: step.depth, statement: key, values: new Map() };
    }
    if (pending && pending.statement === key && pending.procedure === step.procedure && pending.depth === step.depth) {
      for (const [v, x] of step.values) if (isProgramVariable(step.procedure, v)) pending.values.set(v, x);
    }
    const direction = branchDirection(program, step);
    const keyword = fnSource.conditionOwner.get(posKey(step.pos));
    if (direction !== null && keyword) {
      out.push({ type: 'branching', action: 'follow', location: location(file, keyword, step.procedure), constraint: { value: direction ? 'true' : 'false' } });
    }
  }
  return out;
}

function isChoice(program: Program, step: TraceStep): boolean {
  return program.procedures.get(step.procedure)?.locations[step.location]?.choice === true;
}

/** For a step leaving a two-way branch of one condition (the front end's assume(c) / assume(!c)
 * pair, or a `*` choice), whether it took the then/body side: that edge was created first. */
function branchDirection(program: Program, step: TraceStep): boolean | null {
  const proc = program.procedures.get(step.procedure);
  if (!proc) return null;
  const siblings = proc.edges.filter((e) => e.from === step.location);
  if (siblings.length !== 2) return null;
  const [a, b] = siblings as [typeof siblings[0], typeof siblings[0]];
  const conditional = proc.locations[step.location]?.choice === true || (a.stmt.kind === 'assume' && b.stmt.kind === 'assume');
  if (!conditional || a.pos.line !== b.pos.line || a.pos.col !== b.pos.col) return null;
  return step.edge === Math.min(a.id, b.id);
}
