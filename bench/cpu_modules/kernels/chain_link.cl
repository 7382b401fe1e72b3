// A middle link, patched in the binary: XXX becomes its index, YYY the next one (same length, so the SPIR-V stays valid).
int cYYY(int x);
int cXXX(int x) { return cYYY(x) + 1; }
