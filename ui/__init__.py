"""The page (PyScript): renders views of spades_core and turns events into actions.

One package per screen, and one shared package under them:

- ``ui.shared``: the plumbing (dom, i18n, storage, ports, the bots' runner) and the card
  widget fed plain data (models, cardface, cardview); imports no screen.
- ``ui.table`` (the solo table), ``ui.rooms`` (the table online), ``ui.lessons``,
  ``ui.drills``: each imports ``ui.shared`` and ``spades_core``, never another screen's
  controller, never ``ui.root`` or ``ui.main``.
- ``ui/root.py`` (the composition root: the only module that knows the controllers),
  ``ui/main.py`` (the page's entry point) and ``ui/botworker.py`` (the bots' worker's entry
  point) stand at the top. docs/architecture.md has the rules; tests/test_architecture.py
  checks them.
"""
