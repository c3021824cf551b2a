"""The Projects view (`P`): every project daimon has a checkpoint for, to switch to."""
