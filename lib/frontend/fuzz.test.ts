// Robustness: deterministic pseudo-random token mutations (delete, duplicate, swap, replace) and
// character insertions applied to seed programs. Every mutant must end in a well-formed Program or in
// an InputError that carries a position: never another exception, never a hang.
import test from 'ava';
import { InputError } from '../diagnostics.js';
import { parseProgram } from './index.js';
import { tokenize } from './lexer.js';
import { wellFormednessProblems } from './testing/well-formed.js';
import { mulberry32 } from '../random.js';

const SEEDS = [
  'void PV1(int y) { int x = -50; while (x < 0) { x = x + y; y++; } assert(y > 0); }',
  `extern void abort(void);
void reach_error() { __assert_fail("0", "f.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error();abort();} } return; }
int __VERIFIER_nondet_int();
int g = 2;
int main() {
  int n = __VERIFIER_nondet_int(), i = 0, k = 0;
  if (!(1 <= n && n <= 1000)) return 0;
  for (i = 0; i < n; i++) { if (i % 2 == 0) continue; k += (i > 3 ? 2 : 1); }
  do { k--; } while (k > 0 && g);
  __VERIFIER_assert(k <= 0);
  return 0;
}`,
  `int fib(int n) { if (n < 1) return 0; else if (n == 1) return 1; return fib(n - 1) + fib(n - 2); }
int main(void) { int x = nondet(); _Bool b = x > 3; long y = (long) x / 4; while (*) { if (*) y++; else break; }
  assume(x >= 0 || b); int r = fib(x); x = y = r * 2; return x != 5 ? x-- : ++x; }`,
  `typedef int T; T h(T a, T b) { T c = a - b, d; d = c, c = -c; return c + d; }
int main() { int i, j = 0; for (int i = 10; i > 0; --i) { j -= h(i, j); if (j == 7) { reach_error(); abort(); } } return j; }`,
];

const EXTRA_TOKENS = ['(', ')', '{', '}', ';', ',', '*', '&', '=', '==', '?', ':', 'int', 'unsigned', 'while', 'if', 'else',
  'return', 'x', '0', '1u', '1.5', '"s"', '[', ']', '->', '.', '/', '%', '<<', '++', '--', 'goto', 'switch', '#', '...'];
const EXTRA_CHARS = ['@', '`', '\\', "'", '"', '/*', '\n#', '0x', '$', '\u00d7'];

const prng = mulberry32;

function mutate(source: string, random: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const kind = Math.floor(random() * 5);
  if (kind === 4) {
    const at = Math.floor(random() * (source.length + 1));
    return source.slice(0, at) + pick(EXTRA_CHARS) + source.slice(at);
  }
  const tokens = tokenize(source, 'seed.c').filter((t) => t.kind !== 'eof').map((t) => t.text);
  const rounds = 1 + Math.floor(random() * 3);
  for (let r = 0; r < rounds && tokens.length > 1; r++) {
    const i = Math.floor(random() * tokens.length);
    switch (kind) {
      case 0:
        tokens.splice(i, 1);
        break;
      case 1:
        tokens.splice(i, 0, tokens[i]!);
        break;
      case 2: {
        const j = Math.floor(random() * tokens.length);
        [tokens[i], tokens[j]] = [tokens[j]!, tokens[i]!];
        break;
      }
      default:
        tokens[i] = pick(EXTRA_TOKENS);
    }
  }
  return tokens.join(' ');
}

test('mutated programs end in a Program or a positioned InputError', (t) => {
  const random = prng(20080607);
  let accepted = 0;
  let rejected = 0;
  const perSeed = 750;
  for (const seed of SEEDS) {
    t.notThrows(() => parseProgram(seed, 'seed.c'), 'seeds themselves are valid');
    for (let k = 0; k < perSeed; k++) {
      const mutant = mutate(seed, random);
      try {
        const program = parseProgram(mutant, 'mutant.c');
        const problems = wellFormednessProblems(program);
        if (problems.length > 0) t.fail(`ill-formed IR for:\n${mutant}\n${problems.join('\n')}`);
        accepted++;
      } catch (e) {
        if (!(e instanceof InputError)) {
          t.fail(`unexpected ${e instanceof Error ? e.stack : String(e)}\nfor:\n${mutant}`);
          return;
        }
        if (e.pos === null || e.pos.line < 1 || e.pos.col < 1) t.fail(`diagnostic without a position: ${e.message}\nfor:\n${mutant}`);
        rejected++;
      }
    }
  }
  t.is(accepted + rejected, SEEDS.length * perSeed);
  t.log(`${accepted + rejected} mutants: ${accepted} accepted, ${rejected} rejected with a diagnostic`);
});
