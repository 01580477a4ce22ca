// An assertion inside a recursive procedure: it holds on every call main makes (n >= 0 all the way
// down). It becomes a ghost error output of the procedure, which main checks after the call.
int down(int n) {
  assert(n >= 0);
  if (n <= 0) return 0;
  return down(n - 1);
}

int main() {
  int k = __VERIFIER_nondet_int();
  if (k < 0) return 0;
  int r = down(k);
  return 0;
}
