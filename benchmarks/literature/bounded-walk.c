// A random walk kept inside [0, n]: the invariant needs both bounds, 0 <= i && i <= n.
void walk(int n) {
  assume(n >= 0);
  int i = 0;
  while (*) {
    if (*) {
      if (i < n)
        i++;
    } else {
      if (i > 0)
        i--;
    }
  }
  assert(i >= 0);
  assert(i <= n);
}
