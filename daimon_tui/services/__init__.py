"""Use cases, one module each, between the views (ui, headless) and the
adapters (store): a view asks a service and gets model and domain values
back; it never imports an adapter (the import contracts in pyproject.toml)."""
