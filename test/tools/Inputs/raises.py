"""A mask file whose import fails."""

raise RuntimeError("this file cannot be imported")
