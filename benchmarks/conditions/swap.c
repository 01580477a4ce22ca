// Paper 004, Fig. 7(a) (Swap): x toggles between 1 and 2 any number of times. x <= 0 is a locally
// pointwise-weakest precondition in the paper's sense; x <= 8 is the weakest one.
void Swap(int x) {
  while (nondet()) {
    if (x == 1)
      x = 2;
    else if (x == 2)
      x = 1;
  }
  assert(x <= 8);
}
