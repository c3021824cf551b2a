"""`?`: the help over every view (its own folder: it belongs to no one view, it reads whichever is under it)."""
