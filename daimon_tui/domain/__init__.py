"""Pure rules over the model: no Textual, no daimon, no files, processes or git
(the `domain-pure` import contract and tests/test_layers.py keep it so)."""
