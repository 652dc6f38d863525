"""``python -m dragonlair`` is the ``dragonlair`` command."""

from .cli import main

main()
