"""Read-only subcommands: they never write."""
