"""Readers: daimon's judged state, history, audit and queue, as our models."""
