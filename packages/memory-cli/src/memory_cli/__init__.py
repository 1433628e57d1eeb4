"""memory-cli: the ``agent`` command."""

from memory_cli.app import main

__all__ = ["main"]
