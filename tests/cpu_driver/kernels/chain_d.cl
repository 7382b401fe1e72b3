// The end of the chain: exports chain_d.
int chain_d(int x) { return x * 10 + 4; }
