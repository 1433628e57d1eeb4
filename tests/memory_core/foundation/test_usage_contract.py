"""The shipped ``usage`` contract (memory_core.testing), run on every tier."""

from memory_core.testing.contracts.usage import *  # noqa: F403
