// Candidate summary pairs from observed calls: clustering by affine law, input boxes (opened where no
// observation contradicts the law) as pre-conditions.
import test from 'ava';
import * as F from '../ir/formula.js';
import { atomsFormula, candidatePairs } from './summary-candidates.js';

const R = 'M!ret';
const mccarthy = (n: bigint) => (n > 100n ? n - 10n : 91n);

test('McCarthy-like calls split into two laws, each with its cluster\'s range as the pre-condition', (t) => {
  const ns = [19n, 30n, 41n, 52n, 63n, 74n, 85n, ...Array.from({ length: 21 }, (_, i) => 91n + BigInt(i)), 119n];
  const states = ns.map((n) => new Map([['n', n], [R, mccarthy(n)]]));
  const pairs = candidatePairs(['n'], R, states, { maxPairs: 2 });
  t.is(pairs.length, 2);
  // Every observation whose input is inside a pair's box satisfies that pair's law.
  for (const pair of pairs) {
    const pre = atomsFormula(pair.pre);
    const post = atomsFormula(pair.post);
    let covered = 0;
    for (const s of states) {
      if (!F.evaluate(pre, (v) => s.get(v)!)) continue;
      covered++;
      t.true(F.evaluate(post, (v) => s.get(v)!));
    }
    t.true(covered >= 3);
  }
  // The two laws are result == 91 and result == n - 10.
  const laws = pairs.map((p) => F.toC(atomsFormula(p.post)));
  t.true(laws.some((l) => !l.includes('n')), laws.join(' | '));
  t.true(laws.some((l) => l.includes('n')), laws.join(' | '));
});

test('a law no observation beyond the determining ones confirms is not proposed', (t) => {
  // Three points on no common line, one input: every line through two misses the third.
  const states = [[0n, 0n], [1n, 5n], [2n, 3n]].map(([n, r]) => new Map([['n', n!], [R, r!]]));
  t.deepEqual(candidatePairs(['n'], R, states, { maxPairs: 2 }), []);
  // Collinear inputs leave the result's law undetermined for two inputs: nothing is guessed.
  const line = [0n, 1n, 2n, 3n].map((i) => new Map([['i', i], ['j', 8n - i], ['r', 8n]]));
  t.deepEqual(candidatePairs(['i', 'j'], 'r', line, { maxPairs: 2 }), []);
});

test('two inputs: the law result == i + j is found from spread-out observations', (t) => {
  const states = [];
  for (let i = 0n; i < 5n; i++) for (let j = -2n; j < 3n; j++) states.push(new Map([['i', i], ['j', j], ['r', i + j]]));
  const pairs = candidatePairs(['i', 'j'], 'r', states, { maxPairs: 2 });
  t.is(pairs.length, 1);
  t.true(F.evaluate(atomsFormula(pairs[0]!.post), (v) => ({ i: 7n, j: 2n, r: 9n })[v]!));
  t.false(F.evaluate(atomsFormula(pairs[0]!.post), (v) => ({ i: 7n, j: 2n, r: 8n })[v]!));
});

test('a pre-condition keeps only the bounds some observation needs: count(n) gives n <= 1 and n >= 2, not boxes', (t) => {
  // count(n) == 1 for n <= 1 and 2n - 1 beyond; the calls seen stop at n = 5, the law does not.
  const count = (n: bigint) => (n <= 1n ? 1n : 2n * n - 1n);
  const states = [-2n, -1n, 0n, 1n, 2n, 3n, 5n].map((n) => new Map([['n', n], ['r', count(n)]]));
  const pairs = candidatePairs(['n'], 'r', states, { maxPairs: 2 });
  const shown = pairs.map((p) => `${F.toC(atomsFormula(p.pre))} => ${F.toC(atomsFormula(p.post))}`);
  t.deepEqual(shown.map((s) => s.split(' => ')[0]).sort(), ['n <= 1', 'n >= 2'], shown.join(' | '));
});
