"""Talking in the lobby and the MUSH conventions around it, over real connections."""

from __future__ import annotations

import asyncio
import re

from persistence.accounts import AccountStore
from tests.conftest import WELCOME_END, log_in


async def two_players(connect):
    alice, bob = await connect(), await connect()
    await log_in(alice, "Alice")
    await log_in(bob, "Bob")
    await alice.expect(r"Bob has connected\.")
    return alice, bob


async def test_who_before_and_after_login(connect):
    alice, bob = await two_players(connect)
    stranger = await connect()
    match = await stranger.command("WHO", r"Player Name +On For +Idle +Doing\n((?:.*\n)*?)2 players connected\.")
    rows = match.group(1)
    assert re.search(r"^Alice +\d\d:\d\d +\d+s", rows, re.MULTILINE)
    assert re.search(r"^Bob +\d\d:\d\d +\d+s", rows, re.MULTILINE)
    await bob.command("@doing Playing Dvorak", r"Your @doing is now: Playing Dvorak")
    await alice.command("WHO", r"Bob +\d\d:\d\d +\d+s  Playing Dvorak")


async def test_say_and_its_quote_shortcut(connect):
    alice, bob = await two_players(connect)
    await alice.command("say Hello, Bob!", r'You say, "Hello, Bob!"')
    await bob.expect(r'Alice says, "Hello, Bob!"')
    await bob.command('"Hi Alice', r'You say, "Hi Alice"')
    await alice.expect(r'Bob says, "Hi Alice"')
    await alice.command("say", r"Say what\?")


async def test_pose_semipose_and_emit(connect):
    alice, bob = await two_players(connect)
    await alice.command("pose waves.", r"Alice waves\.")
    await bob.expect(r"Alice waves\.")
    await alice.command(":grins.", r"Alice grins\.")
    await bob.expect(r"Alice grins\.")
    await alice.command(";'s hat falls off.", r"Alice's hat falls off\.")
    await bob.expect(r"Alice's hat falls off\.")
    await alice.command("@emit The lights flicker.", r"^The lights flicker\.")
    await bob.expect(r"^The lights flicker\.")


async def test_nothing_said_passes_for_a_line_of_the_servers(connect):
    # Padded with spaces to the edge of an 80-column window, a say (or pose, or page)
    # used to wrap so that its end began a line of its own, as a wall does.
    alice, bob = await two_players(connect)
    fake = "Announcement from Admin: the server restarts, type your password again."
    for line in (f"say hi{' ' * 90}{fake}", f"pose waves.{' ' * 90}{fake}", f"page Bob=hi{' ' * 90}{fake}"):
        alice.send(line)
        seen = await bob.expect(r"Admin: the server restarts.*\n")
        assert not re.search(r"^Announcement", bob.transcript, re.M), bob.transcript
    assert seen.group(0)
    # Nor as an @emit or a pose, however the words are disguised: invisible and combining
    # characters, Greek and Cyrillic letters, other spaces and asterisks, wide forms.
    for line in (
        f"@emit {fake}",
        "@emit   *** The server is shutting down now. ***",
        "@emit A\u034fnnouncement from Admin: type your password again.",
        "@emit \u0391nnouncement from Admin: type your password again.",
        "@emit Announcement\u00a0fr\u043em Admin: type your password again.",
        "@emit *\ufe0f** The server is shutting down now. ***",
        "@emit \u2217\u2217\u2217 The server is shutting down now.",
        "@emit \uff21nnouncernent from Admin: hi",
        "@emit \u3164Announcement from Admin: hi",
        "@emit \u2800Announcement  from Admin: hi",
    ):
        await alice.command(line, r"An @emit may not read as the server's notices do")
    ann = await connect()
    await log_in(ann, "Ann")
    await ann.command(";ouncement from Admin: type your password again.", r"A pose may not read as the server's")
    await ann.command(":", r"Pose what\?")
    await alice.command("@emit The lights flicker.", r"^The lights flicker\.")
    await bob.expect(r"^The lights flicker\.")
    assert "Admin" not in bob.transcript.split("flicker")[-1] and bob.transcript.count("Announcement") == 3
    assert "nnouncement" not in bob.transcript.split("flicker")[-1]


async def test_page_repeat_and_pose_page(connect):
    alice, bob = await two_players(connect)
    await alice.command("page bob=psst", r"You paged Bob with 'psst'\.")
    await bob.expect(r"Alice pages: psst")
    await alice.command("page again, just you", r"You paged Bob with 'again, just you'\.")
    await bob.expect(r"Alice pages: again, just you")
    await alice.command("page Bo=:winks.", r"Long distance to Bob: Alice winks\.")
    await bob.expect(r"From afar, Alice winks\.")


async def test_page_errors(connect):
    alice, bob = await two_players(connect)
    await alice.command("page hello", r"Page whom\? Use: page <name>=<message>")
    await alice.command("page nobody=hi", r'There is no player called "nobody"\.')
    carol = await connect()
    await log_in(carol, "Carol")
    await carol.command("QUIT", r"Goodbye")
    await alice.command("page carol=hi", r"carol is not connected\.")
    await alice.command("page bob=", r"What do you want to page Bob\?")


async def test_page_reaches_only_its_target(connect):
    alice, bob = await two_players(connect)
    carol = await connect()
    await log_in(carol, "Carol")
    await alice.command("page bob=secret plan", r"You paged Bob")
    await bob.expect(r"Alice pages: secret plan")
    await carol.quiet(0.2)
    assert "secret plan" not in carol.transcript


async def test_unknown_input_gets_huh(connect):
    client = await connect()
    await client.command("xyzzy", r'^Huh\?  \(Type "help" for help\.\)$')
    await log_in(client, "Alice")
    await client.command("frobnicate the thing", r'^Huh\?  \(Type "help" for help\.\)$')


async def test_help_is_generated_from_the_commands(connect):
    client = await connect()
    await client.command("help", r"connect +Log in to your player")
    await log_in(client, "Alice")
    await client.command("help", r"say +Say something to everyone where you are\.")
    await client.command("help page", r"Help for page:\n  page <name>=<message>\n")
    await client.command('help "', r"Help for say:")
    await client.command("help nonsense", r'There is no help on "nonsense" here\.')
    match = await client.command("commands", r"(?s)Talk: .*say \(\"\).*Type \"help <command>\" for how to use one\.\n")
    assert len(match.group(0).splitlines()) <= 24


async def test_look_shows_the_lobby_and_who_is_here(connect):
    alice, bob = await two_players(connect)
    await alice.command("look", r"The Lobby\n(?:.*\n)*?Players here: Alice, Bob\.")


async def test_logout_returns_to_the_welcome_screen(connect):
    alice, bob = await two_players(connect)
    await alice.command("LOGOUT", r"You are logged out\.\n(?:.*\n)*?.*" + WELCOME_END)
    await bob.expect(r"Alice has disconnected\.")
    await alice.command("say hi", r"You are not logged in")
    await alice.command("connect Alice secret1", r"Welcome back, Alice\.")
    await bob.expect(r"Alice has connected\.")


async def test_idle_does_not_reset_idle_time(connect):
    alice, bob = await two_players(connect)
    await asyncio.sleep(2.1)
    alice.send("IDLE")
    alice.send("IDLE keepalive text")
    await bob.command("WHO", r"Alice +\d\d:\d\d +[2-9]s")
    assert (await alice.quiet(0.2)).strip() == ""
    await alice.command("look", r"The Lobby")
    await bob.command("WHO", r"Alice +\d\d:\d\d +[01]s")


async def test_output_prefix_and_suffix_frame_every_command(connect):
    client = await connect()
    client.send("OUTPUTPREFIX <<<")
    client.send("OUTPUTSUFFIX >>>")
    await client.command("WHO", r"<<<\nPlayer Name.*\n(?:.*\n)*?0 players connected\.\n>>>\n")
    await client.command("nonsense", r"<<<\nHuh\?.*\n>>>\n")
    await log_in(client, "Alice")
    await client.command("say framed", r'<<<\nYou say, "framed"\n>>>\n')
    client.send("IDLE")
    client.send("OUTPUTPREFIX")
    await client.command("say half", r'^You say, "half"\n>>>\n')
    assert '<<<\nYou say, "half"' not in client.transcript


async def test_a_frame_goes_out_with_its_command_output_not_before_it(connect, monkeypatch):
    """The prefix waits for the command's first output: a command waiting on the database
    sends nothing meanwhile, then its whole frame at once (one write, not two)."""
    client = await connect()
    await log_in(client, "Alice")
    client.send("OUTPUTPREFIX <<<")
    client.send("OUTPUTSUFFIX >>>")
    await client.command("say framed", r'<<<\nYou say, "framed"\n>>>\n')
    release = asyncio.Event()
    find = AccountStore.find

    async def slow_find(store: AccountStore, name: str) -> object:
        await release.wait()
        return await find(store, name)

    monkeypatch.setattr(AccountStore, "find", slow_find)
    client.send("page nobody=hi")
    assert await client.quiet(0.3) == ""
    release.set()
    await client.expect(r'^<<<\nThere is no player called "nobody"\.\n>>>\n')
    # A frame with no suffix still goes out.
    client.send("OUTPUTSUFFIX")
    await client.command("say half", r'^<<<\nYou say, "half"\n$')


async def test_other_players_output_never_lands_inside_a_frame(connect):
    alice, bob = await two_players(connect)
    alice.send("OUTPUTPREFIX [begin]")
    alice.send("OUTPUTSUFFIX [end]")
    rounds = 25

    async def chatter():
        for i in range(rounds):
            bob.send(f"say noise {i}")
            await asyncio.sleep(0.002)

    chatter_task = asyncio.create_task(chatter())
    for _ in range(rounds):
        # page to an offline name makes the server wait on the database mid-command
        alice.send("page nobody=hi")
    for _ in range(rounds):
        await alice.expect(r"\[end\]\n")
    await chatter_task
    await bob.expect(rf'You say, "noise {rounds - 1}"')
    await alice.quiet(0.2)
    for i in range(rounds):
        assert f'Bob says, "noise {i}"' in alice.transcript
    frames = re.findall(r"\[begin\]\n(.*?)\[end\]\n", alice.transcript, re.DOTALL)
    assert frames == ['There is no player called "nobody".\n'] * rounds


async def test_a_crowded_lobby_lists_a_few_names_and_stops_announcing_arrivals(connect, monkeypatch):
    monkeypatch.setattr("server.hub.Lobby.crowd", 2)
    monkeypatch.setattr("commands.look.NAMES_SHOWN", 2)
    alice, bob = await two_players(connect)
    carol = await connect()
    await log_in(carol, "Carol")
    await alice.command("look", r"Players here: Alice, Bob and 1 more \(WHO lists everyone\)\.")
    await alice.command("say the crowd is here", r"You say")
    dave = await connect()
    await log_in(dave, "Dave")
    await carol.command("say hello all", r"You say")
    await alice.expect(r'Carol says, "hello all"')
    assert "Carol has connected" not in alice.transcript
    assert "Dave has connected" not in alice.transcript
