// A counter up to an input bound: the exit condition i >= n and the invariant i <= n give i == n.
void count_up(int n) {
  assume(n >= 0);
  int i = 0;
  while (i < n) {
    i++;
  }
  assert(i == n);
}
