"""The Great Dragon Race (Outset Media, 2016), for 2 to 4 players, as ``dragon-race``.

The rules in brief. Each player races a dragon pawn from the Start Island (spot 0) to the
Finish. Everyone is dealt four cards; seat 0 (left of the dealer) begins and play goes
clockwise. A turn starts by drawing up to five cards, then the player makes one play:

- a number card: move ahead that many spots (a HALT! card may be played as its number);
  a card with the player's own insignia grants another play;
- a three of a kind: fly to the next watering hole ahead (never to the Finish);
- a special: Bolts!/Balls! (every pawn back 5/3, the player's too), Updraft! (to the spot in
  front of the nearest pawn ahead), Downdraft! (the leader back to the spot behind the
  player), Passing Wind! (to the next watering hole), Tornado! (ahead 6, or a rival back
  to the watering hole behind them). Pawns on watering holes are safe from specials.

The shortcut: a pawn resting on the entry arrow counts its next move from the exit arrow.
A pawn ending on a Ballista Bolt or Flaming Ball discards a random card. A player whose
movement ends on rivals (not on the Start or a watering hole) steals a random card from one
of them and must play it at once as their own; the victim draws an extra card next turn.
After every play and every steal, each other player may call HALT! with a HALT! card: the
whole turn is undone. The first pawn on or past the Finish wins.

Our rulings and deviations (docs/rules/dragon-race.md has them all, with the data schema):

- The board and deck are a proposal (the printed ones are unpublished); a user's own file
  of printed values can be loaded with the ``data`` option.
- Every other player is asked HALT! or pass after every play and steal, holding a HALT! or
  not; a halt puts every pawn back where the turn began, cards spent stay spent, and a
  halted steal gives the card back. No HALT! follows a three of a kind from a watering
  hole, and a HALT! cannot be halted.
- Hazards are paid once a play's HALT! window has passed, before thievery.
- Thievery happens where the turn's movement ends; nobody is robbed twice in one turn. A
  stolen Updraft!/Downdraft! moves the thief two ahead when tied for the lead; a stolen
  Passing Wind! that cannot be played does nothing.
- An own-insignia bonus play is optional (option ``bonus_play="must"`` makes it compulsory).
- Safety cap (option ``turn_cap``, default 400 turns): the pawn furthest ahead wins, ties
  share. Points are the spots reached.
"""

from .heuristic import Heuristic
from .rules import DragonRace, DragonRaceState
from .view import DragonRaceSeatView  # installs the views of the rules' states

__all__ = ["DragonRace", "DragonRaceSeatView", "DragonRaceState", "Heuristic"]
