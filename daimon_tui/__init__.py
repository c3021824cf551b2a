"""daimon-tui: review and curate the memory daimon keeps for a coding agent."""

__version__ = "0.1.0"
