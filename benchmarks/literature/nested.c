// Nested loops: the inner loop runs three times per outer iteration, so k ends at 3*n.
int main() {
  int n = __VERIFIER_nondet_int();
  assume(n >= 0);
  int i = 0;
  int j = 0;
  int k = 0;
  while (i < n) {
    j = 0;
    while (j < 3) {
      j++;
      k++;
    }
    i++;
  }
  assert(k == 3 * n);
}
