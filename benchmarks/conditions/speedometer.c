// Paper 004, Fig. 7(b) (from Gopan and Reps): the classic speedometer. d counts metres, s metres in
// the current second, t seconds; at most 5 metres a second. Strongest postcondition at the exit:
// s + d + t >= 0 && d <= s + 5*t.
void SP1() {
  int d = 0;
  int t = 0;
  int s = 0;
  while (nondet()) {
    if (nondet()) {
      t++;
      s = 0;
    } else if (nondet()) {
      if (s <= 4) {
        d++;
        s++;
      }
    }
  }
}
