"""memory_bench_external: see the package README."""
