"""The table online: the rooms' controller (``rooms``: the room connection, one WebSocket,
resume, reconnection; it owns its parts, objects of one concern each: ``waiting_room``,
entering a room and the waiting room; ``room_table``, the room's table and its bar;
``daily_board``, the daily board), the adapter of the server's JSON (``rooms_client``,
pure) and the rooms' dialogs and waiting room (``rooms_screen``, a renderer).

May import: ``ui.shared``, ``spades_core``, itself, and the solo table's renderers
(``ui.table.render``, ``ui.table.dialogs``: an online table is drawn as the solo one).
Never ``ui.table``'s controllers, ``ui.root``, ``ui.main``, nor a lessons or drills module.
"""
