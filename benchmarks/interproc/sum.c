// A recursive sum 0 + 1 + ... + n: the summary n >= 0 => \result >= n (and >= 0) suffices.
int sum(int n) {
  if (n <= 0) return 0;
  return n + sum(n - 1);
}

int main() {
  int k = __VERIFIER_nondet_int();
  if (k < 0) return 0;
  int r = sum(k);
  assert(r >= k);
  return 0;
}
