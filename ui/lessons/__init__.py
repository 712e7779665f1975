"""The lessons screen: its controller (``lessons_screen``, which also holds the Drills tab's
state), the lesson logic (``lessons_player``, pure) and the stored progress
(``lessons_progress``, pure). Loaded when the lessons open, never by the first screen.

May import: ``ui.shared``, ``spades_core``, itself, and the drills' renderer and pure
modules (``ui.drills``). Never ``ui.table``'s controller, ``ui.rooms``, ``ui.root`` or
``ui.main``: it reaches the table's controller only through ``ui.shared.ports.Port``.
"""
