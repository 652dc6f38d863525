"""The parts a web table is made of, each a small class with its dependencies handed in.

:class:`dragonlair.web.session.Table` composes them (docs/server.md, "Inside a table");
no part imports the lobby, the connections or storage, and none calls the table back:

- :mod:`.ports`: the Protocols for what comes from outside (host, peers, bot pool, storage);
- :mod:`.current`: the committed state and the table's status, which every part reads;
- :mod:`.seats`: seats and presence;
- :mod:`.decisions`: which move each asked seat's decision dates from;
- :mod:`.windows`: one length for every reaction window and offer;
- :mod:`.clocks`: deadlines, away timers, answers given for a seat;
- :mod:`.botseats`: the bot driver;
- :mod:`.practice`: hints and undo checks;
- :mod:`.holds`: decisions held for confirmation (the undo window);
- :mod:`.chatroom`: the chat, as stored and sent;
- :mod:`.rematch`: a finished game's rematch, each seat told its own link.
"""
