// Counting to n breaks an assertion exactly when n >= 11: the most-general failing condition.
void boundTen(int n) {
  int i = 0;
  while (i < n)
    i++;
  assert(i <= 10);
}
