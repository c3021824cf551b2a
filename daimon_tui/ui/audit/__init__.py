"""The Audit view: receipts, daimon's rejections and ledger health."""
