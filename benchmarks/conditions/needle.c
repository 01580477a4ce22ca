// A bug in a narrow band of inputs: only 295 <= x <= 305 fails. The random runs of verify miss it and
// no invariant proves a false assertion; verify's bounded model checking solves for an input in the
// band, and cex gives the failing condition over the nondet value with a replayed run inside it.
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  if (x >= 295 && x <= 305) {
    y = x - 290;
  }
  assert(y <= 4);
  return 0;
}
