// Paper 004, Fig. 4(a) (WP1): x and y grow by i and j until x exceeds 100. Weakest preconditions:
// i >= j (the assertion holds at the exit) and i <= 0 (the loop never exits).
void WP1(int i, int j) {
  int x = 0;
  int y = 0;
  while (x <= 100) {
    x = x + i;
    y = y + j;
  }
  assert(x >= y);
}
