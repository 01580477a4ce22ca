// Safe: adding 6 or 3 keeps i a multiple of 3. No linear invariant over i and n says so; with a ghost
// quotient q == i / 3 (verify's remainder ghosts) the invariant is i == 3 * q.
int main() {
  int n = __VERIFIER_nondet_int();
  int i = 0;
  while (i < n) {
    if (__VERIFIER_nondet_int()) i = i + 6; else i = i + 3;
  }
  assert(i % 3 == 0);
  return 0;
}
