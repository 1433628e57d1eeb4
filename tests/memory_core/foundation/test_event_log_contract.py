"""The shipped ``event_log`` contract (memory_core.testing), run on every tier."""

from memory_core.testing.contracts.event_log import *  # noqa: F403
