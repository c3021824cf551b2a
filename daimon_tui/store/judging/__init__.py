"""The judging machinery: first paint, the judging child, its shared snapshot, verdict cache, live tail."""
