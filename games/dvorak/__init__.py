"""Dvorak: the card game whose cards are written by its players.

``state`` holds a table and the deltas that change it, ``rules`` the moves and their
checks, ``settings`` what a host may configure. Pure and synchronous: no I/O.
"""
