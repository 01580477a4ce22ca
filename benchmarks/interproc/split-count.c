// Divide and conquer: count(n) returns the number of calls it makes (1 for itself plus those of the
// two halves). The call count is bounded through the return value: n >= 1 => \result <= 2 * n - 1.
int count(int n) {
  if (n <= 1) return 1;
  int h = n / 2;
  return 1 + count(h) + count(n - h);
}

int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1) return 0;
  int calls = count(n);
  assert(calls <= 2 * n - 1);
  return 0;
}
