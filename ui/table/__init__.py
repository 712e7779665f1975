"""The solo table: its controller (``app``), its renderers (``render``, ``dialogs``,
``viewer_screen``), the hand viewer's model (``viewer``), and what only the table uses
(``savegame``, ``stats``, ``pacing``, ``deals``, ``coach_cache``, ``avatar``, ``icons``).

May import: ``ui.shared``, ``spades_core``, itself. Its renderers never import ``app``.
Never ``ui.root``, ``ui.main``, nor a lessons or drills module. One known exception, to go
with issue 42's point 2: ``app`` makes the rooms' controller (``ui.rooms.rooms``) at boot
and routes the table's actions to it while a room is open.
"""
