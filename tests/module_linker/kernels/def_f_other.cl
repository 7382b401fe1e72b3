// Defines f differently from def_f.cl: x + 2.
int f(int x) { return x + 2; }
