"""memory_store_pg: see the package README."""
