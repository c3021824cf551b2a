"""The adapters: the only package that imports `daimon_briefing` (and that
only through `daimon_api`'s modules for anything beyond daimon's public API),
the judging child, our own files, git. Its inner layers are the
`store-layers` import contract in pyproject.toml."""
