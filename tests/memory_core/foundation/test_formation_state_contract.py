"""The shipped ``formation_state`` contract (memory_core.testing), run on every tier."""

from memory_core.testing.contracts.formation_state import *  # noqa: F403
