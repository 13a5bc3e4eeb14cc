"""Names in any letters, over telnet: Czech, Slovak and Russian players under their own
names, found by those who cannot type the accents, lined up in WHO and rooms; a name in
two alphabets, and a look-alike of a player's, refused with a clear message."""

from __future__ import annotations

import re
import unicodedata

from tests.players import ScriptedPlayer, flat


async def test_players_and_rooms_named_in_their_own_letters_are_found_without_the_accents(server):
    rehor = await ScriptedPlayer.connect(server.port, "Řehoř")
    sarka = await ScriptedPlayer.connect(server.port, "Šárka")
    zhanna = await ScriptedPlayer.connect(server.port, "Жанна")
    assert "Welcome, Řehoř!" in flat(rehor.client.transcript)

    # Found without its accents: page, join, connect.
    assert "You paged Řehoř" in await sarka.ask("page Rehor=Ahoj!")
    await rehor.client.expect("Šárka pages: Ahoj!")
    assert "mixes letters of two alphabets (Cyrillic and Latin)" in await rehor.ask("newroom Čajovn\u0430")
    assert "You made room Čajovňa" in await rehor.ask("newroom Čajovňa")
    assert "You take a seat" in await sarka.ask("join Cajovna")
    await zhanna.ask("watch čajovna")

    # WHO lines the names up with an ASCII one: each row's time online starts in one column.
    await ScriptedPlayer.connect(server.port, "Al")
    who = await zhanna.ask("WHO")
    rows = [line for line in who.split("\n") if line.startswith(("Řehoř", "Šárka", "Жанна", "Al "))]
    assert len(rows) == 4, who
    assert len({re.search(r"\d\d:\d\d", row).start() for row in rows}) == 1, who
    rooms = await zhanna.ask("rooms")
    assert "Čajovňa" in rooms

    # A name is composed as it comes in: Ř typed as R and a háček is the one letter.
    await rehor.client.close()
    again = await ScriptedPlayer.connect(server.port, unicodedata.normalize("NFD", "Řehoř"), create=False)
    assert "Welcome back, Řehoř." in flat(again.client.transcript)
    bare = await ScriptedPlayer.connect(server.port, "Rehor", create=False)
    assert "Welcome back, Řehoř." in flat(bare.client.transcript)
    await ScriptedPlayer.connect(server.port, "Ivaň")
    small = await ScriptedPlayer.connect(server.port, "ivan", create=False)
    assert "Welcome back, Ivaň." in flat(small.client.transcript)


async def test_a_name_in_two_alphabets_or_like_another_s_is_refused_and_makes_nothing(server):
    await ScriptedPlayer.connect(server.port, "Šárka")
    for name, refusal in (
        ("B\u043eb", "'B\u043eb' mixes letters of two alphabets (Cyrillic and Latin), as a look-alike name does"),
        ("Sarka", "The name 'Sarka' looks too much like Šárka's. Choose another."),
        ("Шárka", "'Шárka' mixes letters of two alphabets (Cyrillic and Latin)"),
        ("李白", "A name is written in Latin, Cyrillic or Greek letters; '李' is none of them."),
    ):
        tried = await ScriptedPlayer.connect(server.port, name)
        assert refusal in flat(tried.client.transcript), name
        assert f"Welcome, {name}!" not in flat(tried.client.transcript)
        # No player was made: logging in under the name finds none, or Šárka herself.
        assert re.match(
            r"Either that player does not exist|Welcome back, Šárka\.", await tried.ask(f"connect {name} secret1")
        )
        await tried.client.close()
