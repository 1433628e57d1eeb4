"""The shipped ``session_state`` contract (memory_core.testing), run on every tier."""

from memory_core.testing.contracts.session_state import *  # noqa: F403
