// A loop over an assigned parameter: the bound is over the inputs' values at the entry (hi - lo).
void window(int lo, int hi) {
  while (lo < hi) {
    lo = lo + 1;
  }
}
