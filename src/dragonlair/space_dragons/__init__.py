"""Space Dragons (Richi Haarhoff, Edition Spielwiese / Pegasus Spiele, 2021), 3 to 5 players.

The rules in brief. 80 crew cards numbered 1 to 80 carry scoring symbols (science, mood,
crime), plus or minus points and up to three effects (shield, tool, damage, crosshair);
20 dragons are worth 8 to 12 points and most carry symbols. Each player is dealt 9 cards;
7 dragons form the lair (the top one face up) and each player gets a spaceship. For the
start player everyone draws the top card of the draw pile: the highest starts, and those
cards leave the game. (The 9 cards dealt and the 7 rounds are the printed game's: a data
file's ``hand_size`` and ``rounds`` change them, and every rule and text follows.)

1. Hiring Crew: nine simultaneous secret picks; after each pick every player passes the
   rest of their hand to the left (seat + 1). The nine picks become the hand.
2. Dragon Hunt: seven rounds. The round's starter plays a card face up, then the others
   clockwise. A card's shields, tools and damage resolve when it is played, in the card's
   order: a shield tucks a draw-pile card under the ship; a damage removes a shield, or
   else tucks a card as damage; a tool removes a damage, or does nothing. After everyone
   has played, the highest card takes one hit (like a damage) for each crosshair on the
   other players' cards of this round, takes the face-up dragon, reveals the next and
   starts the next round. The two cards left in each hand are set aside at the end.
3. Scoring: crew plus/minus points, dragon values, shields (+1) and damage (-2), then the
   three scoring cards (science, mood, crime; side A or B each). Most points wins; a tie
   goes to the player with more dragons; still tied, the win is shared.

Our rulings and deviations (the rulebook is silent or contradicts itself; see
docs/rules/space-dragons.md):

- The rulebook publishes no per-card data: the built-in deck is the project's proposal
  (cards 73-79 deal 1 damage to their own ship and card 80 deals 2, as published). Play
  with printed values through the ``data`` option.
- Immediate effects resolve in the order the data file lists them (shields, then tools,
  then damage in the built-in deck).
- Scoring cards use dense ranking ("second most" is the next distinct count after a tie),
  zero counts take part, tied players all take the full award, and a player who
  qualifies for two awards on one card takes only the larger.
- B sides are penalties by default (rulebook example 3); option ``b_sides=bonus`` reads
  them as the rulebook text does. Shield and damage values are options (+1 and -2).
- An empty draw pile does not stop shields or damage: they become counters.
- Designer's variant (option ``variant``): no Hiring Crew; the dealt 9 cards are the hand
  and every hand passes left after each of rounds 1 to 6.
- Each scoring card's side may be chosen at random at setup (option value ``random``).
"""

from .heuristic import Heuristic
from .rules import SpaceDragons, SpaceDragonsState
from .view import SpaceDragonsSeatView  # installs the views of the rules' states

__all__ = ["Heuristic", "SpaceDragons", "SpaceDragonsSeatView", "SpaceDragonsState"]
