"""The shipped ``unit_of_work`` contract (memory_core.testing), run on every tier."""

from memory_core.testing.contracts.unit_of_work import *  # noqa: F403
