"""The shipped ``session_store`` contract (memory_core.testing), run on every tier."""

from memory_core.testing.contracts.session_store import *  # noqa: F403
