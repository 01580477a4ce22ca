// The concrete interpreter: runs a program on given inputs and a stream of nondet values. Every
// engine replays its counterexamples through it, so it follows the IR's meaning exactly:
// mathematical integers, assume-guarded deterministic branches, choice locations deciding by one
// nondet value, calls by value with shared globals. Frames live on an explicit stack, so deep
// recursion costs heap, not JS stack.
import type { Procedure, Program, SourcePos } from '../ir/cfg.js';
import { InputError } from '../diagnostics.js';
import { compileProcedure, globalIndex, type CompiledEdge, type CompiledProc, type Frame, type VarRef } from './compile.js';
import { stmtText } from './stmt-text.js';
import { LoopAccelerator } from './accelerate.js';
import {
  DEFAULT_MAX_CALL_DEPTH,
  DEFAULT_MAX_STEPS,
  type ValueRange,
  type RunOptions,
  type RunOutcome,
  type RunResult,
  type TraceStep,
} from './types.js';

interface ActiveFrame {
  readonly code: CompiledProc;
  readonly vars: Frame;
  loc: number;
  /** The caller's call edge this frame returns through (null for the entry frame). */
  readonly callEdge: CompiledEdge | null;
}

/** Compiled procedures per program: samplers and guards run one program hundreds of times, and the
 * compiled code is closures over the IR alone (every run brings its own frames), so it is shared. */
const compiled = new WeakMap<Program, WeakMap<Procedure, CompiledProc>>();

function compiledCode(program: Program): WeakMap<Procedure, CompiledProc> {
  let code = compiled.get(program);
  if (!code) compiled.set(program, (code = new WeakMap()));
  return code;
}

export function runProgram(program: Program, options: RunOptions = {}): RunResult {
  const entryName = options.entry ?? program.entry;
  const entryProc = program.procedures.get(entryName);
  if (!entryProc) {
    const defined = [...program.procedures.keys()].join(', ') || 'none';
    throw new InputError('error', `unknown function '${entryName}' (defined: ${defined})`, null);
  }
  const givenInputs = options.inputs ?? new Map<string, bigint>();
  for (const name of givenInputs.keys()) {
    if (!entryProc.params.includes(name)) {
      const params = entryProc.params.length > 0 ? `parameters: ${entryProc.params.join(', ')}` : 'it has no parameters';
      throw new InputError('error', `'${entryName}' has no parameter '${name}' (${params})`, entryProc.pos);
    }
  }
  return new Run(program, options, entryProc).run(givenInputs);
}

/** A stop of the run: its outcome, or a step that goes on. */
type StepEnd = RunOutcome | null;

/** One run: the frames, the globals, the nondet values taken, the counts of steps and work. */
class Run {
  private readonly maxSteps: number;
  private readonly maxCallDepth: number;
  private readonly nondetDefault: bigint | null;
  private readonly stream: readonly bigint[];
  private readonly trace: TraceStep[] | undefined;
  private readonly codeCache: WeakMap<Procedure, CompiledProc>;
  private readonly globals: bigint[];
  private readonly consumed: bigint[] = [];
  private defaulted = 0;
  private solved = 0;
  private steps = 0;
  private work = 0;
  private readonly maxWork: number;
  private readonly inputs = new Map<string, bigint>();
  private readonly inputsFromNondet: string[] = [];
  private readonly frames: ActiveFrame[] = [];
  private watcher: ReturnType<typeof watchEntryFrame> | null = null;
  private accelerator: LoopAccelerator | null = null;
  private lastPos: SourcePos | null = null;

  constructor(private readonly program: Program, private readonly options: RunOptions, private readonly entryProc: Procedure) {
    this.maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    this.maxCallDepth = options.maxCallDepth ?? DEFAULT_MAX_CALL_DEPTH;
    this.nondetDefault = options.nondetDefault === undefined ? 0n : options.nondetDefault;
    this.stream = options.nondet ?? [];
    this.trace = options.recordTrace ? [] : undefined;
    this.codeCache = compiledCode(program);
    this.globals = program.globals.map((g) => g.init);
    this.maxWork = options.maxWork ?? this.maxSteps;
  }

  private codeOf(proc: Procedure): CompiledProc {
    let code = this.codeCache.get(proc);
    if (!code) {
      code = compileProcedure(this.program, proc, globalIndex(this.program));
      this.codeCache.set(proc, code);
    }
    return code;
  }

  private takeNondet(pinned: (() => bigint | null) | null = null, range: ValueRange | null = null): bigint | null {
    if (this.options.preferPinned && pinned) {
      const p = pinned();
      if (p !== null) {
        this.solved++;
        this.consumed.push(p);
        return p;
      }
    }
    const next = this.consumed.length - this.defaulted - this.solved;
    if (next < this.stream.length) {
      const v = this.options.foldIntoRange === true && range ? foldInto(this.stream[next]!, range) : this.stream[next]!;
      this.consumed.push(v);
      return v;
    }
    // Past the stream a value pinned by the next assumption is no choice at all (a quotient): take it.
    const p = pinned?.() ?? null;
    if (p !== null) {
      this.solved++;
      this.consumed.push(p);
      return p;
    }
    if (this.nondetDefault === null) return null;
    this.defaulted++;
    this.consumed.push(this.nondetDefault);
    return this.nondetDefault;
  }

  private finish(outcome: RunOutcome): RunResult {
    const { program, globals, trace, watcher } = this;
    const result: RunResult = {
      outcome,
      entry: this.entryProc.name,
      inputs: this.inputs,
      inputsFromNondet: this.inputsFromNondet,
      nondetConsumed: this.consumed,
      nondetDefault: this.nondetDefault,
      nondetDefaulted: this.defaulted,
      nondetSolved: this.solved,
      steps: this.steps,
      globals: new Map(program.globals.map((g, i) => [g.name, globals[i]!])),
    };
    const withTrace = trace ? { ...result, trace } : result;
    return watcher ? { ...withTrace, watched: watcher.states() } : withTrace;
  }

  private write(frame: ActiveFrame, ref: VarRef, value: bigint): void {
    if (ref.global) this.globals[ref.index] = value;
    else frame.vars[ref.index] = value;
  }

  run(givenInputs: ReadonlyMap<string, bigint>): RunResult {
    const { entryProc, options } = this;
    const entryCode = this.codeOf(entryProc);
    const entryVars: Frame = new Array<bigint>(entryCode.frameVars.length).fill(0n);
    for (const [i, name] of entryProc.params.entries()) {
      let v = givenInputs.get(name);
      const range = entryProc.paramRanges?.get(name) ?? null;
      if (v === undefined) {
        const n = this.takeNondet(null, range);
        if (n === null) return this.finish({ kind: 'nondet-exhausted', pos: entryProc.pos, procedure: entryProc.name });
        v = n;
        this.inputsFromNondet.push(name);
      }
      this.inputs.set(name, v);
      entryVars[i] = v;
      if (range && (v < range.lo || v > range.hi)) {
        return this.finish({ kind: 'nondet-out-of-range', pos: entryProc.pos, procedure: entryProc.name, value: v, range });
      }
    }
    this.frames.push({ code: entryCode, vars: entryVars, loc: entryProc.entry, callEdge: null });
    this.watcher = options.watch ? watchEntryFrame(this.program, entryCode, options.watch, this.globals, entryVars) : null;
    this.watcher?.visit(entryProc.entry);
    this.accelerator = options.accelerate && !this.trace && (!options.watch || options.watch.corners !== undefined)
      ? new LoopAccelerator(entryCode, this.program.globals.map((g) => g.name))
      : null;
    for (;;) {
      const end = this.step();
      if (end) return this.finish(end);
    }
  }

  /** One step of the innermost frame: a return to its caller, or one edge. */
  private step(): StepEnd {
    const { frames, options, maxSteps } = this;
    const frame = frames[frames.length - 1]!;
    const proc = frame.code.proc;
    if (frame.loc === proc.exit) return this.returnFrom(frame);
    const location = proc.locations[frame.loc];
    if (this.steps >= maxSteps || this.work >= this.maxWork || ((this.work & 0xffff) === 0xffff && options.interrupted?.())) {
      return { kind: 'step-limit', limit: 'steps', max: maxSteps, pos: location?.pos ?? this.lastPos, procedure: proc.name };
    }
    // What the trace records of the step; untraced runs (most of the sampling) allocate none of it.
    const stepNondet: bigint[] | null = this.trace ? [] : null;
    const chosen = this.enabledEdge(frame, stepNondet);
    if (!('stmt' in chosen)) return chosen;
    return this.take(frame, chosen, stepNondet);
  }

  /** The frame's exit: back to the caller's location after its call, with the returned value. */
  private returnFrom(frame: ActiveFrame): StepEnd {
    const { frames, trace } = this;
    const depth = frames.length - 1;
    const proc = frame.code.proc;
    const returnValue = frame.code.returnSlot === null ? null : frame.vars[frame.code.returnSlot]!;
    frames.pop();
    const caller = frames[frames.length - 1];
    if (!caller) return { kind: 'exit', returnValue };
    const call = frame.callEdge!;
    const values = trace ? new Map<string, bigint>() : null;
    if (call.stmt.kind === 'call' && call.stmt.target !== null) {
      // compileProcedure rejected a used result of a void callee, so returnValue is set.
      this.write(caller, call.stmt.target, returnValue!);
      values?.set(call.stmt.target.name, returnValue!);
    }
    caller.loc = call.edge.to;
    if (depth === 1) this.watcher?.visit(call.edge.to);
    trace?.push({
      kind: 'return',
      procedure: caller.code.proc.name,
      depth: depth - 1,
      location: call.edge.from,
      to: call.edge.to,
      edge: call.edge.id,
      pos: call.edge.pos,
      text: `return from ${proc.name}`,
      values: values!,
    });
    return null;
  }

  /** The one edge the state enables (a choice location: the one a nondet value picks), or why none. */
  private enabledEdge(frame: ActiveFrame, stepNondet: bigint[] | null): CompiledEdge | RunOutcome {
    const proc = frame.code.proc;
    const location = proc.locations[frame.loc];
    const outs = frame.code.out[frame.loc] ?? [];
    if (location?.choice) {
      if (outs.length !== 2) {
        throw new Error(`internal IR error: choice location ${frame.loc} of ${proc.name} has ${outs.length} outgoing edges, expected 2`);
      }
      const v = this.takeNondet();
      if (v === null) return { kind: 'nondet-exhausted', pos: location.pos ?? outs[0]!.edge.pos, procedure: proc.name };
      stepNondet?.push(v);
      // Non-zero takes the edge with the smaller id (then-branch / loop body); `outs` is in id order.
      return v !== 0n ? outs[0]! : outs[1]!;
    }
    let chosen: CompiledEdge | undefined;
    for (const e of outs) {
      if (e.stmt.kind === 'assume' && !e.stmt.test(frame.vars, this.globals)) {
        if (e.stmt.premise) return { kind: 'overflow', pos: e.edge.pos, procedure: proc.name };
        continue;
      }
      if (chosen) {
        throw new Error(
          `internal IR error: location ${frame.loc} of ${proc.name} is not a choice location but edges ${chosen.edge.id} and ${e.edge.id} are both enabled`,
        );
      }
      chosen = e;
    }
    if (!chosen) {
      const pos = outs[0]?.edge.pos ?? location?.pos ?? this.lastPos;
      return { kind: 'assume-blocked', pos, procedure: proc.name, location: frame.loc };
    }
    return chosen;
  }

  /** Executes the chosen edge's statement, moves on (or into a call), and records the step. */
  private take(frame: ActiveFrame, chosen: CompiledEdge, stepNondet: bigint[] | null): StepEnd {
    const { frames, globals, trace } = this;
    const proc = frame.code.proc;
    const depth = frames.length - 1;
    const edge = chosen.edge;
    const s = chosen.stmt;
    // The overflow checks are not statements of the program: they cost no step, so step budgets mean
    // what they meant before C's overflow was checked (they stay in the trace).
    if (s.kind !== 'assume' || !s.premise) {
      this.steps++;
      this.work++;
    }
    this.lastPos = edge.pos;
    const values = trace ? new Map<string, bigint>() : null;
    let kind: TraceStep['kind'] = 'edge';
    // A step that ends the run (failed assert, bad nondet value) is still recorded in the trace.
    let stop: RunOutcome | null = null;
    switch (s.kind) {
      case 'assign': {
        const v = s.value(frame.vars, globals);
        this.write(frame, s.target, v);
        values?.set(s.target.name, v);
        break;
      }
      case 'havoc': {
        const pinned = s.pinned;
        // A ghost (a quotient, a wrap-around count) is a function of the state, not a choice.
        const computed = s.ghost && pinned ? pinned(frame.vars, globals) : null;
        if (computed !== null) {
          this.write(frame, s.target, computed);
          values?.set(s.target.name, computed);
          break;
        }
        const v = this.takeNondet(pinned && (() => pinned(frame.vars, globals)), s.range);
        if (v === null) {
          stop = { kind: 'nondet-exhausted', pos: edge.pos, procedure: proc.name };
          break;
        }
        stepNondet?.push(v);
        if (s.range && (v < s.range.lo || v > s.range.hi)) {
          stop = { kind: 'nondet-out-of-range', pos: edge.pos, procedure: proc.name, value: v, range: s.range };
          break;
        }
        this.write(frame, s.target, v);
        values?.set(s.target.name, v);
        break;
      }
      case 'assume':
        // Only reached unchecked on a choice location, whose edges should be unguarded; honour it anyway.
        if (!s.test(frame.vars, globals)) stop = { kind: 'assume-blocked', pos: edge.pos, procedure: proc.name, location: frame.loc };
        break;
      case 'assert':
        if (!s.test(frame.vars, globals)) stop = { kind: 'assertion-failed', pos: edge.pos, procedure: proc.name, edge: edge.id };
        break;
      case 'call': {
        if (frames.length >= this.maxCallDepth) {
          stop = { kind: 'step-limit', limit: 'call-depth', max: this.maxCallDepth, pos: edge.pos, procedure: proc.name };
          break;
        }
        const callee = this.program.procedures.get(s.callee)!;
        const code = this.codeOf(callee);
        const vars: Frame = new Array<bigint>(code.frameVars.length).fill(0n);
        // Arguments are evaluated in the caller's frame before the callee's frame exists.
        for (const [i, arg] of s.args.entries()) {
          vars[i] = arg(frame.vars, globals);
          values?.set(callee.params[i]!, vars[i]!);
        }
        frames.push({ code, vars, loc: callee.entry, callEdge: chosen });
        kind = 'call';
        break;
      }
      case 'skip':
        break;
    }
    if (kind !== 'call' && stop === null) this.moveTo(frame, chosen, depth);
    if (kind === 'call' && depth === 0) this.accelerator?.call();
    if (trace) {
      const step: TraceStep = {
        kind,
        procedure: proc.name,
        depth,
        location: edge.from,
        to: edge.to,
        edge: edge.id,
        pos: edge.pos,
        text: stmtText(edge.stmt),
        values: values!,
      };
      trace.push(stepNondet!.length > 0 ? { ...step, nondet: stepNondet! } : step);
    }
    return stop;
  }

  /** Along the edge to its target; in the entry frame, past a loop in closed form where it repeats. */
  private moveTo(frame: ActiveFrame, chosen: CompiledEdge, depth: number): void {
    const to = chosen.edge.to;
    frame.loc = to;
    if (depth !== 0) return;
    this.watcher?.visit(to);
    if (!this.accelerator) return;
    this.accelerator.edge(chosen);
    const jump = this.accelerator.visit(to, frame.vars, this.globals, this.maxSteps - this.steps);
    if (jump) {
      this.steps += jump.steps;
      this.watcher?.visit(to); // the state after the jump, at the same header
    }
  }
}

/** The `watch` option: copies of the entry frame's slots at watched locations, made into states at the end. */
function watchEntryFrame(program: Program, code: CompiledProc, watch: NonNullable<RunOptions['watch']>, globals: readonly bigint[], vars: readonly bigint[]) {
  const proc = code.proc;
  // The same variables, in the same order, as a state built from a trace: globals, locals, parameters.
  const slotOf = new Map(code.frameVars.map((v, i) => [v, i]));
  const names = [...new Set([...proc.locals, ...proc.params])];
  const slots = names.map((v) => slotOf.get(v)!);
  const limit = watch.corners ?? watch.firstAndLast ?? Infinity;
  type Snapshot = bigint[]; // the globals, then the slots
  interface Visits {
    /** Copies: the first visits, or the corners. */
    kept: Snapshot[];
    /** The last visit (for corners, one array updated in place at every visit), unless kept. */
    last: Snapshot | null;
    /** For corners: the change from the visit before `last` to `last`, and whether `last` is kept. */
    change: bigint[] | null;
    /** The array the next change is written to (the one before last, reused). */
    next: bigint[] | null;
    lastKept: boolean;
  }
  const visits = new Map<number, Visits>();
  const g = globals.length;
  const snapshot = (): Snapshot => [...globals, ...slots.map((i) => vars[i]!)];
  // The corners' test runs at every visit of a loop head, millions of times in a long run: no arrays
  // are made unless a state is kept.
  const visitCorner = (entry: Visits): void => {
    const last = entry.last;
    if (last === null) {
      const copy = snapshot();
      entry.kept.push(copy);
      entry.last = copy.slice();
      entry.lastKept = true;
      return;
    }
    // One pass: the new change goes to `next` while it is compared with the old one.
    const change = entry.change;
    const next = entry.next ?? (entry.next = new Array<bigint>(last.length));
    let turned = false;
    for (let i = 0; i < g; i++) {
      const d = globals[i]! - last[i]!;
      if (change !== null && d !== change[i]!) turned = true;
      next[i] = d;
    }
    for (let i = 0; i < slots.length; i++) {
      const d = vars[slots[i]!]! - last[g + i]!;
      if (change !== null && d !== change[g + i]!) turned = true;
      next[g + i] = d;
    }
    // `last` is a corner when the path turns there (the first change has nothing to differ from).
    if (turned && !entry.lastKept && entry.kept.length < limit) entry.kept.push(last.slice());
    for (let i = 0; i < g; i++) last[i] = globals[i]!;
    for (let i = 0; i < slots.length; i++) last[g + i] = vars[slots[i]!]!;
    entry.next = change;
    entry.change = next;
    entry.lastKept = false;
  };
  return {
    visit(loc: number): void {
      if (!watch.locations.has(loc)) return;
      let entry = visits.get(loc);
      if (!entry) visits.set(loc, (entry = { kept: [], last: null, change: null, next: null, lastKept: false }));
      if (watch.corners !== undefined) return visitCorner(entry);
      if (entry.kept.length < limit) entry.kept.push(snapshot());
      else entry.last = snapshot();
    },
    states(): Map<number, Map<string, bigint>[]> {
      const toState = (snapshot: Snapshot): Map<string, bigint> => {
        const state = new Map<string, bigint>(program.globals.map((gl, i) => [gl.name, snapshot[i]!]));
        names.forEach((name, i) => state.set(name, snapshot[program.globals.length + i]!));
        return state;
      };
      return new Map([...visits].map(([loc, { kept, last, lastKept }]) => [loc, [...kept, ...(last && !lastKept ? [last] : [])].map(toState)]));
    },
  };
}

/** A value brought into a range (foldIntoRange): its absolute value when that fits (small negative
 * samples for an unsigned input stay small), else reduced modulo the range's size. */
export function foldInto(v: bigint, range: ValueRange): bigint {
  if (v >= range.lo && v <= range.hi) return v;
  const abs = v < 0n ? -v : v;
  if (abs >= range.lo && abs <= range.hi) return abs;
  const size = range.hi - range.lo + 1n;
  return range.lo + ((((v - range.lo) % size) + size) % size);
}
