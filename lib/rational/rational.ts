// Exact rationals over bigint, normalised (denominator > 0, gcd 1), for the Farkas simplex.
// Never floating point: a certificate found here is checked by exact arithmetic only.
import { gcd } from '../ir/linear.js';

export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

export const ZERO: Rational = { num: 0n, den: 1n };
export const ONE: Rational = { num: 1n, den: 1n };

export function rational(num: bigint, den: bigint = 1n): Rational {
  if (den === 0n) throw new Error('rational with zero denominator');
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const g = gcd(num, den);
  return g > 1n ? { num: num / g, den: den / g } : { num, den };
}

export const addQ = (a: Rational, b: Rational): Rational => rational(a.num * b.den + b.num * a.den, a.den * b.den);
export const subQ = (a: Rational, b: Rational): Rational =>
  b.num === 0n ? a : a.den === 1n && b.den === 1n ? { num: a.num - b.num, den: 1n } : rational(a.num * b.den - b.num * a.den, a.den * b.den);
export const mulQ = (a: Rational, b: Rational): Rational =>
  a.num === 0n || b.num === 0n ? ZERO : a.den === 1n && b.den === 1n ? { num: a.num * b.num, den: 1n } : rational(a.num * b.num, a.den * b.den);
export const divQ = (a: Rational, b: Rational): Rational => rational(a.num * b.den, a.den * b.num);
export const negQ = (a: Rational): Rational => ({ num: -a.num, den: a.den });
export const isZeroQ = (a: Rational): boolean => a.num === 0n;
export const signQ = (a: Rational): number => (a.num > 0n ? 1 : a.num < 0n ? -1 : 0);
export const cmpQ = (a: Rational, b: Rational): number => signQ(subQ(a, b));

export function lcm(a: bigint, b: bigint): bigint {
  if (a === 0n || b === 0n) return 0n;
  const m = (a * b) / gcd(a, b);
  return m < 0n ? -m : m;
}
