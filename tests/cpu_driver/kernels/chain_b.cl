// Second link of the chain: exports chain_b, imports chain_c.
int chain_c(int x);
int chain_b(int x) { return chain_c(x) * 10 + 2; }
