"""The Log view: every action taken from this app, newest first, with its hash chain's health."""
