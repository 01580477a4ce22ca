// Random small C functions for fuzzing every command (scripts/command-fuzz.ts): a function `f` with
// 1–3 int parameters (so wp, cex and bounds have something to state conditions over), a few locals,
// loops nested and sequenced (while, for, do-while, with break and continue sometimes), if/else,
// nondet choices sometimes, and assertions. Most loops terminate with an iteration count linear in the
// parameters (`i = 0; while (i < a) ... i = i + 1;`, `k = b; while (k > 0) ... k = k - 2;`); some do
// not for some inputs (a step that is a parameter, a guard that may never let the counter move, a
// countdown that can jump over 0), for nonterm. Deterministic for a given generator (lib/random.ts).
const PARAMS = ['a', 'b', 'c'];
const DATA = ['x', 'y', 's'];
const COUNTERS = ['i', 'j', 'k'];

export interface GeneratedFunction {
  readonly source: string;
  /** The analysed function (the program's entry). */
  readonly function: string;
  readonly parameters: readonly string[];
}

/** How a loop moves on: the statement a `continue` must run first (none for `for`, whose increment
 * runs on continue). */
interface LoopFrame {
  readonly counter: string;
  readonly stepBeforeContinue: string | null;
}

export class CommandProgramGenerator {
  private params: string[] = [];
  private loopsLeft = 0;
  private nondet = false;
  private used = new Set<string>();

  constructor(private readonly rand: () => number) {}

  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.rand() * (hi - lo + 1));
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[this.int(0, xs.length - 1)]!;
  }

  private chance(p: number): boolean {
    return this.rand() < p;
  }

  private use(v: string): string {
    this.used.add(v);
    return v;
  }

  private param(): string {
    return this.pick(this.params);
  }

  private signed(k: number): string {
    return k >= 0 ? `+ ${k}` : `- ${-k}`;
  }

  /** A variable that may be read here: data, the parameters, the counters of enclosing loops. */
  private readable(frames: readonly LoopFrame[]): string {
    const pool = [...DATA, ...this.params, ...frames.map((f) => f.counter)];
    const v = this.pick(pool);
    return DATA.includes(v) ? this.use(v) : v;
  }

  /** A linear term over what may be read: `x`, `a + 2`, `x + y`, `-1`. */
  private term(frames: readonly LoopFrame[]): string {
    switch (this.int(0, 4)) {
      case 0: return `${this.int(-3, 3)}`;
      case 1: return this.readable(frames);
      case 2: return `${this.readable(frames)} ${this.signed(this.pick([-2, -1, 1, 2]))}`;
      case 3: return `${this.readable(frames)} + ${this.readable(frames)}`;
      default: return `${this.readable(frames)} - ${this.readable(frames)}`;
    }
  }

  private comparison(frames: readonly LoopFrame[]): string {
    return `${this.readable(frames)} ${this.pick(['<', '<=', '>', '>=', '==', '!='])} ${this.term(frames)}`;
  }

  /** Assertions: bounds that often hold (proving them needs loop invariants) and comparisons that
   * fail for some inputs (so wp and cex have conditions to find). */
  private assertion(frames: readonly LoopFrame[]): string {
    switch (this.int(0, 5)) {
      case 0: return this.comparison(frames);
      case 1: return `${this.readable(frames)} <= ${this.param()} ${this.signed(this.int(0, 6))}`;
      case 2: return `${this.readable(frames)} >= ${this.int(-4, 0)}`;
      case 3: return `${this.readable(frames)} <= ${this.pick([4, 8, 12, 20])}`;
      case 4: return `${this.readable(frames)} - ${this.readable(frames)} <= ${this.int(0, 8)}`;
      default: return `${this.readable(frames)} + ${this.readable(frames)} >= ${this.int(-6, 0)}`;
    }
  }

  private assignment(frames: readonly LoopFrame[]): string {
    const target = this.use(this.pick(DATA));
    if (this.nondet && this.chance(0.12)) return `${target} = nondet();`;
    switch (this.int(0, 4)) {
      case 0: return `${target} = ${target} ${this.signed(this.pick([-2, -1, 1, 1, 2]))};`;
      case 1: return `${target} = ${target} + ${this.readable(frames)};`;
      default: {
        const term = this.term(frames);
        return term === target ? `${target} = ${target} + 1;` : `${target} = ${term};`;
      }
    }
  }

  private condition(frames: readonly LoopFrame[]): string {
    return this.nondet && this.chance(0.3) ? '*' : this.comparison(frames);
  }

  private statement(depth: number, frames: readonly LoopFrame[]): string {
    const roll = this.int(0, 9);
    if (roll <= 4) return this.assignment(frames);
    if (roll <= 6 && this.loopsLeft > 0 && depth < 2) return this.loop(depth + 1, frames);
    if (roll <= 7 && depth < 2) {
      const then = this.block(depth + 1, frames, 1, 2, false);
      return this.chance(0.5) ? `if (${this.condition(frames)}) { ${then} }` : `if (${this.condition(frames)}) { ${then} } else { ${this.block(depth + 1, frames, 1, 1, false)} }`;
    }
    if (roll <= 8 && frames.length > 0) return `assert(${this.assertion(frames)});`;
    return this.assignment(frames);
  }

  private block(depth: number, frames: readonly LoopFrame[], min: number, max: number, loopBody: boolean): string {
    const parts = Array.from({ length: this.int(min, max) }, () => this.statement(depth, frames));
    if (loopBody && this.chance(0.3)) {
      // Leaving or skipping the rest of this loop's iteration: only directly in its own body.
      const frame = frames[frames.length - 1]!;
      const exit = this.chance(0.5) ? 'break;' : frame.stepBeforeContinue ? `{ ${frame.stepBeforeContinue} continue; }` : 'continue;';
      parts.splice(this.int(0, parts.length), 0, `if (${this.comparison(frames)}) ${exit}`);
    }
    return parts.join(' ');
  }

  /** How many times a counting loop runs: a parameter, a parameter plus a constant, a constant, or
   * (nested) an enclosing counter. */
  private limit(frames: readonly LoopFrame[]): string {
    const roll = this.int(0, 9);
    if (roll <= 4) return this.param();
    if (roll <= 6) return `${this.param()} ${this.signed(this.pick([-1, 1, 2]))}`;
    if (roll <= 7 && frames.length > 0) return frames[frames.length - 1]!.counter;
    if (roll <= 8 && this.params.length > 1) return `${this.params[0]} + ${this.params[1]}`;
    return `${this.int(1, 4)}`;
  }

  private loop(depth: number, frames: readonly LoopFrame[]): string {
    this.loopsLeft--;
    const free = COUNTERS.filter((c) => !frames.some((f) => f.counter === c));
    const c = this.use(this.pick(free));
    const inner = (step: string | null, min = 1, max = 2): string => this.block(depth, [...frames, { counter: c, stepBeforeContinue: step }], min, max, true);
    const roll = this.int(0, 19);
    if (roll <= 4) {
      const step = `${c} = ${c} + 1;`;
      return `${c} = 0; while (${c} < ${this.limit(frames)}) { ${inner(step)} ${step} }`;
    }
    if (roll <= 8) {
      const inc = this.chance(0.8) ? `${c}++` : `${c} = ${c} + 2`;
      return `for (${c} = 0; ${c} < ${this.limit(frames)}; ${inc}) { ${inner(null)} }`;
    }
    if (roll <= 11) {
      const step = `${c} = ${c} - ${this.pick([1, 1, 2])};`;
      return `${c} = ${this.limit(frames)}; while (${c} > 0) { ${inner(step)} ${step} }`;
    }
    if (roll <= 13) {
      const step = `${c} = ${c} + 1;`;
      return `${c} = 0; do { ${inner(step)} ${step} } while (${c} < ${this.limit(frames)});`;
    }
    if (roll <= 16) {
      if (depth === 1 && this.chance(0.5)) {
        // A parameter counted down in place (the bound is over its initial value).
        const p = this.param();
        const step = `${p} = ${p} - 1;`;
        return `while (${p} > 0) { ${inner(step)} ${step} }`;
      }
      const step = `${c} = ${c} + 1;`;
      return `${c} = 0; while (${c} < ${this.limit(frames)}) { ${inner(step)} ${step} }`;
    }
    // Loops that do not terminate for some inputs.
    switch (this.int(0, 3)) {
      case 0: {
        // The counter's step is a parameter: no progress when it is <= 0.
        const step = `${c} = ${c} + ${this.param()};`;
        return `${c} = 0; while (${c} < ${this.limit(frames)}) { ${inner(step, 0, 1)} ${step} }`;
      }
      case 1: {
        // Steps of 2 jump over 0 from an odd start.
        const step = `${c} = ${c} - 2;`;
        return `${c} = ${this.param()}; while (${c} != 0) { ${inner(step, 0, 1)} ${step} }`;
      }
      case 2: {
        // Drift: never ends when the start and the step are both non-negative.
        const step = `${c} = ${c} + ${this.param()};`;
        return `${c} = ${this.param()}; while (${c} >= 0) { ${inner(step, 0, 1)} ${step} }`;
      }
      default: {
        // The counter only moves while a comparison of the data holds.
        const guard = `${this.use(this.pick(DATA))} ${this.pick(['<', '>=', '!='])} ${this.param()}`;
        const step = `if (${guard}) ${c} = ${c} + 1;`;
        return `${c} = 0; while (${c} < ${this.limit(frames)}) { ${inner(null, 0, 1)} ${step} }`;
      }
    }
  }

  program(): GeneratedFunction {
    this.params = PARAMS.slice(0, this.pick([1, 1, 2, 2, 3]));
    this.loopsLeft = this.pick([1, 1, 2, 2, 3]);
    this.nondet = this.chance(0.3);
    this.used = new Set();
    const parts: string[] = [];
    if (this.chance(0.2)) parts.push(`assume(${this.param()} >= ${this.int(-2, 1)});`);
    // At least one loop, at the top level, among a few other statements.
    const before = Array.from({ length: this.int(0, 1) }, () => this.statement(0, []));
    const first = this.loop(1, []);
    const after = Array.from({ length: this.int(0, 2) }, () => this.statement(0, []));
    parts.push(...before, first, ...after, `assert(${this.assertion([])});`);
    const ret = this.use(this.pick(DATA));
    // Every local declared and initialised up front: the postcondition at the exit is over all of them.
    const init = (v: string): string => (DATA.includes(v) ? this.pick(['0', '0', '1', this.param()]) : '0');
    const locals = [...DATA, ...COUNTERS].filter((v) => this.used.has(v)).map((v) => `int ${v} = ${init(v)};`);
    const source = [
      `int f(${this.params.map((p) => `int ${p}`).join(', ')}) {`,
      `  ${locals.join(' ')}`,
      ...parts.map((s) => `  ${s}`),
      `  return ${ret};`,
      '}',
      '',
    ].join('\n');
    return { source, function: 'f', parameters: [...this.params] };
  }
}
