"""Playing at the terminal: the session loop, the screens, saving and replays."""

from .session import PlaySession, SeatConfig, load_save

__all__ = ["PlaySession", "SeatConfig", "load_save"]
