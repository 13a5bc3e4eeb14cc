"""The pure tier: tests of the rules alone, needing no database driver, no server and no
network. Every file here is in the fast tier, and :mod:`tests.test_fast_tier` runs the
folder with the database drivers made impossible to import: a test that needs one
belongs elsewhere."""
