"""The drills: a drill under way (``drill_controller``: its items, answers and the Expert's
answers worked out off the main thread; ``drills_run``, pure: its words, its chart, its answers
as JSON), the drills' best scores (``drills_progress``, pure) and the Drills tab's renderer
(``drills_screen``). The lessons screen holds the drill controller and routes its actions.

May import: ``ui.shared``, ``spades_core``, itself, and the lessons' pure card helpers
(``ui.lessons.lessons_player``). Never another controller (``ui.lessons.lessons_screen``,
``ui.table.app``, ``ui.rooms.rooms``), ``ui.root`` or ``ui.main``.
"""
