"""The shipped ``decay`` contract (memory_core.testing), run on every tier."""

from memory_core.testing.contracts.decay import *  # noqa: F403
