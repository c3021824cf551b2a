"""The Health view: where the project's memory is heading, a column per charted session."""
