"""Test support shared across test folders (importable because pytest puts tests/ on sys.path)."""
