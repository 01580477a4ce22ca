// A bug in a narrow band of inputs: only 295 <= x <= 305 fails. The random runs of verify miss it; its
// guided runs (the values where the conditions change truth: 294..296, 304..306) find it, and so would
// its bounded model checking; cex gives the failing condition over the nondet value.
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
