"""Dvorak in a game room: its commands, how its events and table read, its GMCP packages;
:mod:`.game` wires them into the room."""
