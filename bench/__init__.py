"""Benchmarks: each `bench_<topic>.py` measures provebench against a baseline in the same run.

Run one with `.venv/bin/python -m bench.bench_<topic> [--quick]`, or all with `make bench`.
Figures are ratios against the in-run baseline (these machines are noisy); each benchmark writes
its figures to `bench/out/<topic>.json` and prints a table. Timing is never asserted in tests.
"""
