"""Game rules: pure, synchronous code with no I/O, one package per game kind.

Nothing here imports from the server, the commands or the database: a game is state
plus moves that return events, testable without a socket.
"""
