// Paper 004, Fig. 9: terminates when n >= m + 1 (and x0 < y0, asserted), within y0 - x0 iterations;
// the invariant i <= (x - x0) - (y - y0) proves it. For n <= m and x0 < y0 it never terminates.
void Loop(int n, int m, int x0, int y0) {
  assert(x0 < y0);
  int x = x0;
  int y = y0;
  while (x < y) {
    x = x + n;
    y = y + m;
  }
}
