"""The shipped ``record_validation`` contract (memory_core.testing), run on every tier."""

from memory_core.testing.contracts.record_validation import *  # noqa: F403
