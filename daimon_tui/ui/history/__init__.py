"""The History view: retained sessions, a checkpoint read-only, diffs, and the briefing as of a moment."""
