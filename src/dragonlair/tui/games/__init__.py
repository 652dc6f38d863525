"""Board renderers, one module per game package: ``board(view, names) -> renderable``."""
