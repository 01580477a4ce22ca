// Random small C programs for differential fuzzing: a few int variables with small nondet initial
// values, assignments, branches (on comparisons and on nondet), a loop with a small nondet bound,
// and assertions over linear comparisons. Deterministic for a given generator (lib/random.ts).
const VARS = ['x', 'y', 'z'];

export class ProgramGenerator {
  constructor(private readonly rand: () => number) {}

  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.rand() * (hi - lo + 1));
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[this.int(0, xs.length - 1)]!;
  }

  private term(): string {
    const k = this.int(-3, 3);
    const v = this.pick(VARS);
    switch (this.int(0, 3)) {
      case 0: return `${k}`;
      case 1: return `${v}`;
      case 2: return `${v} + ${k}`;
      default: return `${v} + ${this.pick(VARS)}`;
    }
  }

  private comparison(): string {
    const op = this.pick(['<', '<=', '>', '>=', '==', '!=']);
    return `${this.pick(VARS)} ${op} ${this.term()}`;
  }

  /** Mostly weak bounds (often true, but proving them may need a loop invariant), sometimes any comparison. */
  private assertion(): string {
    const k = this.pick([8, 12, 20, 40]);
    switch (this.int(0, 3)) {
      case 0: return this.comparison();
      case 1: return `${this.pick(VARS)} <= ${k}`;
      case 2: return `${this.pick(VARS)} >= -${k}`;
      default: return `${this.pick(VARS)} - ${this.pick(VARS)} <= ${k}`;
    }
  }

  private statement(depth: number, inLoop: boolean): string {
    const choice = this.int(0, depth > 1 ? 3 : 6);
    if (choice <= 3) return `${this.pick(VARS)} = ${this.term()};`;
    if (choice === 4) {
      const cond = this.rand() < 0.3 ? '__VERIFIER_nondet_int()' : this.comparison();
      return `if (${cond}) { ${this.block(depth + 1, inLoop)} } else { ${this.block(depth + 1, inLoop)} }`;
    }
    if (choice === 5 && !inLoop) {
      // A loop with a small bound, so concrete runs cover its iterations.
      return `i = 0; n = __VERIFIER_nondet_int(); __VERIFIER_assume(n >= 0 && n <= 4); while (i < n) { ${this.block(depth + 1, true)} i = i + 1; }`;
    }
    return `__VERIFIER_assert(${this.assertion()});`;
  }

  private block(depth: number, inLoop: boolean): string {
    const n = this.int(1, 3);
    return Array.from({ length: n }, () => this.statement(depth, inLoop)).join(' ');
  }

  program(): string {
    const init = VARS.map((v) => `  int ${v} = __VERIFIER_nondet_int(); __VERIFIER_assume(${v} >= -4 && ${v} <= 4);`).join('\n');
    return [
      'extern int __VERIFIER_nondet_int(void);',
      'extern void __VERIFIER_assume(int);',
      'extern void __VERIFIER_assert(int);',
      'int main() {',
      init,
      '  int i; int n;',
      `  ${this.block(0, false)}`,
      `  __VERIFIER_assert(${this.assertion()});`,
      '  return 0;',
      '}',
      '',
    ].join('\n');
  }
}
