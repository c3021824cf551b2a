"""The Search view: what daimon remembers, in recall's order, across sessions and projects."""
