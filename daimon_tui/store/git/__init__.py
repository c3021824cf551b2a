"""The project's git repository, read offline (GitPython over GitDB: no git process)."""
