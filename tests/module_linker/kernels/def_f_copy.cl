// Defines f exactly as def_f.cl does.
int f(int x) { return x + 1; }
