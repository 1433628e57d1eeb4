"""A minimal agent runtime: just enough agent to exercise memory honestly."""
