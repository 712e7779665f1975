"""The lessons screen: its shell and list (``lessons_screen``), a lesson under way
(``lesson_controller``, drawn by ``lesson_view``), the lesson logic (``lessons_player``, pure)
and the stored progress (``lessons_progress``, pure). Loaded when the lessons open, never by
the first screen.

May import: ``ui.shared``, ``spades_core``, itself, and the drills (``ui.drills``: a drill
under way and its renderer). Never ``ui.table``'s controllers, ``ui.rooms``, ``ui.root`` or
``ui.main``: it reaches the table's controller only through ``ui.shared.ports.Port``.
"""
