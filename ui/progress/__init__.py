"""The Progress screen: the learner's history of judged hands (``history``, pure: stored,
checked, compacted, exported and imported), its charts (``charts``, pure SVG markup from
plain data), the screen (``progress_screen``, a renderer) and its controller (``progress``,
built by the root and handed the table's controller as its port).

May import: ``ui.shared``, ``spades_core``, itself.  Never ``ui.table``, ``ui.rooms``,
``ui.root``, ``ui.main``, nor a lessons or drills module.
"""
