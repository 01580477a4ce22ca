// PV2, Fig. 2 of Gulwani, Srivastava, Venkatesan (PLDI 2008), after Gopan and Reps' lookahead
// widening example. x and y climb together up to 51, then y falls while x keeps climbing; the loop
// leaves when y drops below zero, at x == 102. `while (1)` stands for the paper's `while (true)`.
void PV2() {
  int x = 0;
  int y = 0;
  while (1) {
    if (x <= 50)
      y++;
    else
      y--;
    if (y < 0)
      break;
    x++;
  }
  assert(x == 102);
}
