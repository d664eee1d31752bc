"""`provebench si matrix`: the SI laboratory over many agents, scenarios and trials, on the
matrix engine (`provebench.matrix`); docs/matrix.md."""
