"""Alembic migrations for both SQLite and PostgreSQL.

The server applies pending migrations when it starts; ``dvorak-mush migrate`` applies
them alone. To write a new one after changing ``persistence/models.py``::

    .venv/bin/alembic -c alembic.ini revision --autogenerate -m "what changed"
"""
