"""Ys: the board game of hidden brokers and gems (seed 001)."""
