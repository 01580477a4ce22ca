// A recursive sum: sum(n) makes max(1, n + 1) calls, which no linear bound covers for every n; under
// n >= 0 (the inputs of the runs that recursed) the bound is n + 1, to be proved with a summary of the
// call counter (paper 004, Section 6.1: a global counter for recursive procedures), checked on every
// entry. The summary engine does not find it yet.
int sum(int n) {
  if (n <= 0) return 0;
  return n + sum(n - 1);
}
