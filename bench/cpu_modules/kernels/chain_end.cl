// The last link, patched like chain_link.cl.
int cXXX(int x) { return x; }
