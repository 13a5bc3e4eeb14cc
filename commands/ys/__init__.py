"""Ys in a game room: its commands (:mod:`.play`), how its events and board read
(:mod:`.render`), and the room wiring (:mod:`.game`)."""
