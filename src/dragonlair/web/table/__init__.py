"""The parts a web table is made of, each a small class with its dependencies handed in.

:class:`dragonlair.web.session.Table` composes them; each part knows nothing of the
lobby, the connections or the other parts:

- :mod:`.decisions`: which move each asked seat's decision dates from (a click made on a
  state a moment old is still accepted when that seat's decision has not changed).
"""
