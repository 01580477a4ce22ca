; Nonlinear Horn clauses: a recursive sum(n) = n + sum(n - 1), called twice by the query. Its clauses
; have two predicates in a body, so they are solved on the clauses (no control-flow graph):
; farkas verify benchmarks/chc/sum-calls.smt2 prints sat and an interpretation of each predicate.
(set-logic HORN)
(declare-fun add (Int Int Int) Bool)
(declare-fun sum (Int Int) Bool)
(assert (forall ((x Int) (y Int) (z Int)) (=> (= z (+ x y)) (add x y z))))
(assert (forall ((n Int)) (=> (<= n 0) (sum n 0))))
(assert (forall ((n Int) (s Int) (r Int))
  (=> (and (> n 0) (sum (- n 1) s) (add n s r)) (sum n r))))
(assert (forall ((n Int) (m Int) (a Int) (b Int))
  (=> (and (sum n a) (sum m b) (< (+ a b) n)) false)))
(check-sat)
(exit)
