"""Tests of the lab's instruments (lab/: the bots' research tools, not the product)."""
