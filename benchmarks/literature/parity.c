// Unsafe: stepping down by two from an odd input stops at 1, never at 0 (n = 1 fails at once).
void parity(int n) {
  assume(n >= 0);
  int x = n;
  while (x > 1) {
    x = x - 2;
  }
  assert(x == 0);
}
