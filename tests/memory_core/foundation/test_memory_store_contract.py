"""The shipped ``memory_store`` contract (memory_core.testing), run on every tier."""

from memory_core.testing.contracts.memory_store import *  # noqa: F403
