"""Pure logic: no Textual, no daimon imports."""
