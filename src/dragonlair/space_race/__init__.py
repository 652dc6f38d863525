"""Space Race (2021), for 2 to 4 players: draft Space cards into your ship, escape Dangers.

The rules in brief. Three rounds, each an Upgrade phase then a Danger phase.

- Upgrade: everyone is dealt 6 Space cards and the Navigation Coin is flipped for the pass
  direction (left = clockwise). Six times, everyone secretly picks a card and how to keep it:
  face up in the ship (a Power Source on the Cockpit's or the Engine's stack) or face down as
  Fuel. The picks are revealed together, then the rest of each hand is passed on.
- A Scanner played face up lets its owner look at the top Danger card.
- Danger: the top Danger card is revealed. Flight: everyone secretly bids Fuel; Fight: Crew;
  from zero to all they hold. Dense ranking by bid (ties share a rank). Each rank's icon:
  x nothing, n wrenches remove n Damage cards (the most negative first), n damage draws n
  Damage cards. Bid cards are discarded.
- Scoring: corner VP of face-up cards; +3 per complete robot (head, body, legs); +9 per four
  Crystals; +2 per top Scanner / Robot Part / Crystal matching the top Power Source of each
  stack; Loot Carriers most +6, second +2; Alien Drones +3 per player with fewer; most Fuel
  +5, most Crew +5 (ties all score; none wins nothing); Damage cards' negative VP. Ties for
  the most points share the win.

Our rulings and deviations (docs/rules/space-race.md has them all, with reasons):

- Component values the rulebook omits (colours, Danger icons, Damage VP) come from our
  proposal in ``data/space_race.json``; the ``data`` option loads a file of printed values.
- Cockpits and Engines are cosmetic: seat i has the data file's i-th faction.
- The Scanner's look is private and lasts while that card stays on top; the ``scanner``
  option ``always`` makes a face-up Scanner keep showing the top card, round after round.
- ``every_power_source``: every Power Source scores its colour bonus, not only the tops.
- A player with nothing to bid is not asked and bids 0. Fuel is spent oldest first, Crew
  worth least first; spent Fuel stays face down (its owner knows it), spent Crew face up.
- Danger effects are applied from the best rank down, tied seats in seat order; an empty
  Damage deck is refilled by shuffling the removed Damage cards; if there are none, no more
  Damage is drawn. Damage cards in a ship are face up.
"""

from .heuristic import Heuristic
from .rules import SpaceRace, SpaceRaceState
from .view import SpaceRaceSeatView  # installs the views of the rules' states

__all__ = ["Heuristic", "SpaceRace", "SpaceRaceSeatView", "SpaceRaceState"]
