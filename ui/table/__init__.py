"""The solo table: its page controller (``app``), which composes the table's controllers of
one concern each (``flow``: the game and the bots' turns; ``moves``: South's moves;
``coaching``: the review, the par and the hand viewer; ``menus``: what the menu opens;
``settings``: the options and the statistics; ``boot``: the page's start, what is stored,
the address, the painted table's takeover), its renderers (``render``, ``dialogs``,
``viewer_screen``), the hand viewer's model (``viewer``), and what only the table uses
(``savegame``, ``stats``, ``pacing``, ``deals``, ``coach_cache``, ``avatar``, ``icons``).

May import: ``ui.shared``, ``spades_core``, itself. Its renderers never import a controller.
Never ``ui.root``, ``ui.main``, nor a lessons or drills module. The rooms' controller is made
by the root (``App(make_rooms=...)``); ``app`` routes the table's actions to it while a room
is open, without importing it.
"""
