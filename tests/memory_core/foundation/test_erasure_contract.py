"""The shipped ``erasure`` contract (memory_core.testing), run on every tier."""

from memory_core.testing.contracts.erasure import *  # noqa: F403
