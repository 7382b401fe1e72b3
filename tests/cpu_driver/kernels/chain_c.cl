// Third link of the chain: exports chain_c, imports chain_d.
int chain_d(int x);
int chain_c(int x) { return chain_d(x) * 10 + 3; }
