"""Board renderers, one module per game package:
``board(game, view, names) -> renderable``."""
