"""Dragon Stripes: push your luck up a sleeping dragon's back (2 to 6 players).

The rules in brief. A knight climbs the dragon from its tail over 17 stripes to its head.
Each player starts with 40 gems, kept secret; the other gems (of 350 in all) are the
dragon's lair. On a turn the player draws cards from one shuffled deck that is never
reshuffled (38 footprint cards of 1 to 4 steps, 10 Stop, 3 Danger):

- a footprint card moves the knight on, and the gems of the stripe it lands on go from the
  lair into the pot beside the knight;
- a Stop sends the knight back to the tail, the pot back to the lair, and costs the
  player 1/4 of their gems (rounded down) into the lair; the turn is over;
- the first Danger is a Stop; the second is a Stop costing 1/2, and from then on the
  rewards are doubled and a Stop costs 1/2; the third wakes the dragon: the game ends
  and the player who drew it loses all their gems;
- after any footprint card the player may hold: the knight is offered to the others one
  at a time, clockwise from the holder's left; the first to take it pays the holder the
  takeover price for the pot (1-10: 1, 11-20: 10, 21-40: 20, 41 and up: 40), takes the
  knight and the pot and must draw at least once. If nobody takes it, the holder banks
  the pot and the turn is over;
- a move past the last stripe reaches the head: its holder takes the pot and the whole
  lair, and the game ends. The richest player wins; ties share the win.

Rulings (``RULINGS.md``): gems are integer values; the lair pays what it has when it runs
short; holdings are secret and payments made in the open are public; a player who cannot
pay the price cannot take the knight; anyone but the holder may take it, an earlier holder
too; the next turn goes clockwise from the player who started the current one, however
often the knight changed hands; landing exactly on stripe 17 does not end the game.

Our own decisions where the rules are silent (``docs/rules/dragon-stripes.md``): seats
are numbered clockwise, so "left" is seat + 1; seat 0 starts. A player who cannot pay is
still asked (and may only decline), so the order of asking reveals nothing. Takeover prices
and banked pots are public; a penalty is paid from behind the screen, so others see that
it was paid and at which fraction but not how much; the lair's total is hidden, except that
it has run dry. The price table uses the pot's actual value (doubled rewards included),
and an empty pot costs the first band's price. On the third Danger the pot goes back to the
lair with the waker's gems. The deck cannot run out: all three Danger cards are in it, so
the third is drawn with the last card at the latest. Component values are our proposal
(stripe k shows k gems; footprints 11/11/9/7 of 1/2/3/4 steps) until printed values are
known; the ``data`` option loads a file with the printed values, and ``open_holdings``
plays with every player's gems in the open.
"""

from .heuristic import Heuristic
from .rules import DragonStripes, DragonStripesState
from .view import DragonStripesSeatView  # installs the views of the rules' states

__all__ = ["DragonStripes", "DragonStripesSeatView", "DragonStripesState", "Heuristic"]
