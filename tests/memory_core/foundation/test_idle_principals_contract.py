"""The shipped ``idle_principals`` contract (memory_core.testing), run on every tier."""

from memory_core.testing.contracts.idle_principals import *  # noqa: F403
