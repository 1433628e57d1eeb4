"""The shipped ``scope_isolation`` contract (memory_core.testing), run on every tier."""

from memory_core.testing.contracts.scope_isolation import *  # noqa: F403
