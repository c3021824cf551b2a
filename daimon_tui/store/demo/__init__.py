"""The built-in demo store, made by daimon's own testing helpers, and its test signer."""
