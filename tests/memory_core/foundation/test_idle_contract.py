"""The shipped ``idle`` contract (memory_core.testing), run on every tier."""

from memory_core.testing.contracts.idle import *  # noqa: F403
