"""The world a claim is about, read offline: probes of the project's git and files, and the evidence behind a claim."""
