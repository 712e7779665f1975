"""What every screen may use: the page's plumbing and the card widget fed plain data.

``dom`` (elements), ``i18n`` (the catalogues and the one namer), ``storage`` (local storage,
checked), ``ports`` (the Port a screen asks its controller through, and the data-action
convention), ``botrunner`` (the bots' worker, seen from the page), ``options`` (the game
options' choices), ``sound``; ``models`` (the plain models drawn), ``cardface`` and
``cardview`` (the one card widget).

May import: the standard library, ``spades_core`` (public names), ``locales``, ``js``, and
itself. Never a screen package (``ui.table``, ``ui.rooms``, ``ui.lessons``, ``ui.drills``),
nor ``ui.root`` or ``ui.main``.
"""
