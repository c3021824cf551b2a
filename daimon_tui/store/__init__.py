"""The only package that imports `daimon_briefing`."""
