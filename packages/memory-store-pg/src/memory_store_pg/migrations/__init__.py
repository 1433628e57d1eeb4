"""Alembic migrations of the memory store (script location ``memory_store_pg:migrations``)."""
