// Counting up to a non-negative bound: at the exit x == n (and n >= 0). A small strongest-
// postcondition example with a known answer.
void count(int n) {
  assume(n >= 0);
  int x = 0;
  while (x < n)
    x++;
}
