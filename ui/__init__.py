"""The PyScript side of the page: renders views of spades_core and turns events into actions."""
