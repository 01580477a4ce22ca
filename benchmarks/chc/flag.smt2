; A loop whose step an input flag f chooses once for all iterations, beside five counters:
;   x = y = a = b = c = d = e = 0; while (x < n) { x++; y += (f == 0 ? 1 : 2); a++; b += 2; c += a; d++; e--; }
;   assert(f != 0 || x == y || a + b + c + d < e);
; The invariant needs f != 0 || x == y: a disjunction over the flag's one value, which a guard
; f == 0 gives (its complement f >= 1 || f <= -1 joined to the hull of the states with f == 0).
(set-logic HORN)
(declare-fun inv (Int Int Int Int Int Int Int Int Int) Bool)
(assert (forall ((f Int) (x Int) (y Int) (n Int) (a Int) (b Int) (c Int) (d Int) (e Int))
  (=> (and (= x 0) (= y 0) (= a 0) (= b 0) (= c 0) (= d 0) (= e 0)) (inv f x y n a b c d e))))
(assert (forall ((f Int) (x Int) (y Int) (n Int) (a Int) (b Int) (c Int) (d Int) (e Int) (x1 Int) (y1 Int))
  (=> (and (inv f x y n a b c d e) (< x n) (= x1 (+ x 1)) (ite (= f 0) (= y1 (+ y 1)) (= y1 (+ y 2))))
      (inv f x1 y1 n (+ a 1) (+ b 2) (+ c a) (+ d 1) (- e 1)))))
(assert (forall ((f Int) (x Int) (y Int) (n Int) (a Int) (b Int) (c Int) (d Int) (e Int))
  (=> (and (inv f x y n a b c d e) (= f 0) (not (= x y)) (>= (+ a b c d) e)) false)))
