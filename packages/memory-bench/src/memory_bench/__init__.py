"""memory_bench: see the package README."""
