"""Storage: SQLAlchemy models and the stores that read and write them.

This package is the only code that speaks SQL. It knows nothing of telnet or commands.
"""
