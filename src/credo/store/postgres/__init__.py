"""The PostgreSQL backend: a team's shared store, chosen by a ``postgresql://`` location.

Importing this package loads nothing of psycopg; ``store.PostgresStore`` does when it
connects (the hook's read path must not pay psycopg's import for a SQLite store).
"""
