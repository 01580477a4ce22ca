; y grows by 3 while x grows by 1: y == 2 * x fails after one step (unsat).
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (inv x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int)) (=> (and (inv x y) (< x 100) (= x1 (+ x 1)) (= y1 (+ y 3))) (inv x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (not (= y (* 2 x)))) false)))
(check-sat)
(exit)
