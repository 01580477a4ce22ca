// Paper 004, Fig. 4(b) (Merge), with the array cells left out: only the index arithmetic matters.
// B (size m1) and C (size m2) are copied into A (size m3). Weakest preconditions:
// m3 >= m1 + m2 && m1 >= 0 && m2 >= 0, and m1 == 0 && m2 == 0.
void Merge(int m1, int m2, int m3) {
  assert(m1 >= 0 && m2 >= 0);
  int k = 0;
  int i = 0;
  while (i < m1) {
    assert(0 <= k && k < m3);
    k++;
    i++;
  }
  i = 0;
  while (i < m2) {
    assert(0 <= k && k < m3);
    k++;
    i++;
  }
}
