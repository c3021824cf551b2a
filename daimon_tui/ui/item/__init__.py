"""The item view (`o`): one item over the list, its screen (`screen`), its whole
text (`full_text`, also `enter` from a list), and the evidence keys that hand the
item to the person's own tools (`evidence`)."""
