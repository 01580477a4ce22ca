; A loop whose branch an input flag f chooses once for all iterations, written as a chain of
; predicates (as front ends translate a loop body), with input copies no clause reads:
;   a = b = i = 0; while (i < n) { if (f != 0) { a += 1; b += 2; } else { a += 2; b += 1; } i++; }
;   assert(a + b == 3 * n);
; The invariant at the loop head, a + b == 3i && i <= n, holds on both branches; each branch's
; predicate alone says more (a == i + 1 after the first), and what they share is their sum.
(set-logic HORN)
(declare-fun head (Int Int Int Int Int Int Int) Bool)
(declare-fun body (Int Int Int Int Int Int Int) Bool)
(declare-fun one (Int Int Int Int Int Int Int) Bool)
(declare-fun two (Int Int Int Int Int Int Int) Bool)
(declare-fun step (Int Int Int Int Int Int Int) Bool)
(assert (forall ((i Int) (n Int) (f Int) (a Int) (b Int) (n0 Int) (f0 Int))
  (=> (and (= i 0) (= a 0) (= b 0) (>= n 0) (= n0 n) (= f0 f)) (head i n f a b n0 f0))))
(assert (forall ((i Int) (n Int) (f Int) (a Int) (b Int) (n0 Int) (f0 Int))
  (=> (and (head i n f a b n0 f0) (< i n)) (body i n f a b n0 f0))))
(assert (forall ((i Int) (n Int) (f Int) (a Int) (b Int) (n0 Int) (f0 Int))
  (=> (and (body i n f a b n0 f0) (not (= f 0))) (one i n f a b n0 f0))))
(assert (forall ((i Int) (n Int) (f Int) (a Int) (b Int) (n0 Int) (f0 Int))
  (=> (and (body i n f a b n0 f0) (= f 0)) (two i n f a b n0 f0))))
(assert (forall ((i Int) (n Int) (f Int) (a Int) (b Int) (n0 Int) (f0 Int) (a1 Int) (b1 Int))
  (=> (and (one i n f a b n0 f0) (= a1 (+ a 1)) (= b1 (+ b 2))) (step i n f a1 b1 n0 f0))))
(assert (forall ((i Int) (n Int) (f Int) (a Int) (b Int) (n0 Int) (f0 Int) (a1 Int) (b1 Int))
  (=> (and (two i n f a b n0 f0) (= a1 (+ a 2)) (= b1 (+ b 1))) (step i n f a1 b1 n0 f0))))
(assert (forall ((i Int) (n Int) (f Int) (a Int) (b Int) (n0 Int) (f0 Int) (i1 Int))
  (=> (and (step i n f a b n0 f0) (= i1 (+ i 1))) (head i1 n f a b n0 f0))))
(assert (forall ((i Int) (n Int) (f Int) (a Int) (b Int) (n0 Int) (f0 Int))
  (=> (and (head i n f a b n0 f0) (>= i n) (not (= (+ a b) (* 3 n)))) false)))
(check-sat)
(exit)
