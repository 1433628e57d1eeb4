"""The shipped ``trace_store`` contract (memory_core.testing), run on every tier."""

from memory_core.testing.contracts.trace_store import *  # noqa: F403
