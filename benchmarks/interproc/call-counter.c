// A recursive procedure that writes a global: sum counts its own calls in `calls`. The global is passed
// in and returned explicitly, so its final value gets a summary of its own (calls == \old(calls) + n + 1).
int calls = 0;

int sum(int n) {
  calls = calls + 1;
  if (n <= 0) return 0;
  return n + sum(n - 1);
}

int main() {
  int k = __VERIFIER_nondet_int();
  if (k < 0) return 0;
  int r = sum(k);
  assert(calls == k + 1);
  return 0;
}
