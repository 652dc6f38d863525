"""The four games at the terminal, one module per game package, each declaring its
``TERMINAL`` (a :class:`dragonlair.tui.parts.TerminalParts`) that its manifest names."""
