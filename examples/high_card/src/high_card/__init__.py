"""High Card: a two-player card game for dragonlair, installed as a distribution of its own.

It reaches every surface of dragonlair (the command line, the bots, the terminal, the
server and its browser board, the RL adapters) through its manifest alone
(:mod:`high_card.manifest`), registered under the ``dragonlair.games`` entry point.
"""
