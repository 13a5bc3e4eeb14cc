"""What Dvorak keeps in the database of its own: its cards, proposals, votes and card
versions as rows (:mod:`.tables`, the projection its kind names), the decks saved from
rooms (:mod:`.decks`) and the CCG decks players build (:mod:`.player_decks`), on the
tables of :mod:`.models`. The one place outside persistence/ that speaks SQL (see
docs/layers.md): a game's storage is part of the game."""
