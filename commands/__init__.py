"""The MUSH command language: one class per command, grouped into command sets."""
