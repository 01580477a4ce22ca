; Nonlinear Horn clauses with a bug: fib(n) = fib(n - 1) + fib(n - 2), and the query claims that
; fib(6) is not 8. farkas verify prints unsat and a derivation tree of false, its clause instances in
; an order where each fact is derived before it is used.
(set-logic HORN)
(declare-fun fib (Int Int) Bool)
(assert (forall ((n Int)) (=> (and (>= n 0) (<= n 1)) (fib n n))))
(assert (forall ((n Int) (a Int) (b Int))
  (=> (and (>= n 2) (fib (- n 1) a) (fib (- n 2) b)) (fib n (+ a b)))))
(assert (forall ((r Int)) (=> (and (fib 6 r) (= r 8)) false)))
(check-sat)
(exit)
