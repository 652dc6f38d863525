"""The observation layouts of the four games, one module each, found by game id through
:func:`dragonlair.rl.layout.layout_for`. Each module defines ``LAYOUT``."""
