// Counting down from a non-negative input by one lands exactly on zero.
void down(int n) {
  assume(n >= 0);
  int x = n;
  while (x > 0) {
    x--;
  }
  assert(x == 0);
}
