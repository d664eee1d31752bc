"""`provebench pilot matrix`: the laboratory over many agents, fresh control sets and trials, on
the matrix engine (`provebench.matrix`); docs/matrix.md."""
