"""Writers: verb plans and the records daimon's own write modules append on the `ui` channel."""
