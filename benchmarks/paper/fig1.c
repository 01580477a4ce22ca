// PV1, Fig. 1 of Gulwani, Srivastava, Venkatesan, "Program Analysis as Constraint Solving" (PLDI 2008).
// The parameter y is an unconstrained input. At the loop header the only inductive invariant that
// proves the assertion is the disjunction x < 0 || y > 0.
void PV1(int y) {
  int x = -50;
  while (x < 0) {
    x = x + y;
    y++;
  }
  assert(y > 0);
}
