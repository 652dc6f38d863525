"""The batched engines' tests. Nothing here imports JAX (tests/accel/conftest.py sets XLA's
flags before anything does)."""

# `make differential` sets it: the games of each file's many_random_games test
GAMES_VARIABLE = "DRAGONLAIR_DIFFERENTIAL_GAMES"
