"""spades_server: the rooms server (play with people) and the page's static files.

An ASGI app (Starlette on uvicorn). The server is the authority for every game it hosts:
it holds each room's game record, applies every action with :mod:`spades_core` and sends
each connection only what its seat may see. The protocol is ``spades-room/1``
(docs/protocol.md). Start it with ``python3 -m spades_server --port 8000``.
"""

from __future__ import annotations

PROTOCOL = "spades-room/1"
# Additions that leave every earlier message as it was raise the revision (the ``welcome``
# frame says both): 2 added ``move`` (the host seats the players), the room's ``host`` and
# the ``seat`` of each ``state`` frame; 3 added ``rematch``, ``leave``, ``free``, ``open``,
# ``watch`` and ``peek``, and the room's presence, timer and rematch fields (docs/protocol.md,
# "Revisions").
REVISION = 4

__all__ = ["PROTOCOL", "REVISION"]
