"""Commands for playing Gnav in a game room: its renderings (the command classes use them)."""
