// PV2 with the turning point 50 replaced by a parameter m >= 0: x and y climb together up to m + 1,
// then y falls back to -1 while x keeps climbing, so the loop leaves at x == 2*m + 2.
void PV2m(int m) {
  assume(m >= 0);
  int x = 0;
  int y = 0;
  while (1) {
    if (x <= m)
      y++;
    else
      y--;
    if (y < 0)
      break;
    x++;
  }
  assert(x == 2 * m + 2);
}
