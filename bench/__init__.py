"""Benchmarks: a load generator on loopback and the scenarios it runs (python -m bench)."""
