// Unsafe: the loop condition i <= n runs one step too far, so i ends at n + 1 (n = 0 already fails).
void off_by_one(int n) {
  assume(n >= 0);
  int i = 0;
  while (i <= n) {
    i++;
  }
  assert(i == n);
}
