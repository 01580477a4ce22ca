// The guard is weaker than the non-termination condition (the shape of paper 004, Fig. 11(b)): from
// i == 0 the loop leaves after one step (i becomes -1), from i >= 1 it never does (2i - 1 >= 1), so the
// weakest non-termination precondition is i >= 1.
void guard(int i) {
  while (i >= 0) {
    i = 2 * i - 1;
  }
}
