"""Commands for playing Dvorak in a game room, with the original engine's names."""
