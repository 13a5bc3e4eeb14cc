"""Help reads well at any width: paragraphs filled to the client's window, usage lines
and examples whole, and every command summed up in one line that fits the index."""

from __future__ import annotations

import re

import pytest

from server.app import MushServer
from server.text import HANGING_INDENT
from tests.client import WILL, MudClient, iac
from tests.conftest import WELCOME_END, log_in
from tests.test_telnet_features import NAWS, naws

FRAMED = re.compile(r"^<<\n(.*?)\n>>\n", re.MULTILINE | re.DOTALL)
INDEX_ENTRY = re.compile(r"^  (\S+) +(\S.*)$")


async def reader_at(server: MushServer, width: int, name: str) -> MudClient:
    """A client with a window ``width`` columns wide, logged in as an administrator (so
    that the staff's commands are read too), host of a room, its replies framed by ``<<``
    and ``>>``."""
    client = await MudClient.open(server.port)
    client.send(iac(WILL, NAWS) + naws(width))
    await client.expect(WELCOME_END)
    await log_in(client, name)
    await server.accounts.store.set_role(name, "admin")
    await client.command("LOGOUT", WELCOME_END)
    await log_in(client, name, create=False)
    await client.command(f"newroom Library{width}", r"host")
    client.send("OUTPUTPREFIX <<")
    client.send("OUTPUTSUFFIX >>")
    return client


async def framed(client: MudClient, line: str) -> list[str]:
    client.send(line)
    return (await client.expect(FRAMED)).group(1).split("\n")


def unfilled(lines: list[str], width: int) -> list[tuple[str, str]]:
    """Pairs of lines of one paragraph where the first could have taken the second's
    first word: a paragraph wrapped twice, or not filled to the window. A paragraph
    starts at the left edge; its continuation lines hang by HANGING_INDENT."""
    pairs = []
    in_prose = False
    for line, following in zip(lines, lines[1:], strict=False):
        in_prose = bool(line) and (not line[0].isspace() or in_prose) and not line.startswith("Help for ")
        continues = following.startswith(HANGING_INDENT) and following[len(HANGING_INDENT) :][:1].strip() != ""
        unwrapped_too = following[:1].strip() != "" and not following.startswith("Also: ")
        if in_prose and (continues or unwrapped_too) and len(line) + 1 + len(following.split()[0]) <= width:
            pairs.append((line, following))
    return pairs


@pytest.mark.parametrize("width", [60, 80, 132])
async def test_every_commands_help_is_filled_to_the_window(start_server, width):
    server = await start_server(command_rate=1000.0, command_burst=1000)
    client = await reader_at(server, width, f"Reader{width}")
    index = await framed(client, "help")
    first_title = next(i for i, line in enumerate(index) if line.endswith(":") and not line[0].isspace())
    names = [entry.group(1) for entry in map(INDEX_ENTRY.match, index[first_title:]) if entry]
    assert {"say", "loadcard", "newcard", "start", "help", "@ban", "@grant"} <= set(names)
    for name in names:
        lines = await framed(client, f"help {name}")
        assert lines[0] == f"Help for {name}:", lines
        assert not unfilled(lines, width), (name, unfilled(lines, width))
        assert all(len(line) <= width for line in lines if not line.startswith("  ")), (name, lines)
    await client.close()


async def test_help_keeps_usage_lines_and_examples_whole(start_server):
    server = await start_server()
    client = await reader_at(server, 40, "Narrow")
    lines = await framed(client, "help loadcard")
    assert "  loadcard <colour>/<name>/<type>/<text>" in lines
    example = next(line for line in lines if line.startswith("  loadcard hw/"))
    assert len(example) > 40
    await client.close()


@pytest.mark.parametrize("width", [80, 132])
async def test_every_summary_in_the_index_is_one_whole_sentence_on_one_line(start_server, width):
    server = await start_server()
    before_login = await MudClient.open(server.port)
    before_login.send(iac(WILL, NAWS) + naws(width))
    await before_login.expect(WELCOME_END)
    before_login.send("help")
    first = (await before_login.expect(r"(?s)Type \"help <command>\".*?\n  connect .*?\n(?:  .*\n)*")).group(0)
    client = await reader_at(server, width, f"Indexer{width}")
    index = await framed(client, "help")
    entries = [line for line in [*first.splitlines(), *index] if line.startswith("  ")]
    assert len(entries) > 60
    for entry in entries:
        match = INDEX_ENTRY.match(entry)
        assert match is not None, entry
        assert match.group(2).endswith((".", ")")), entry
        assert len(entry) <= 80, entry
    await before_login.close()
    await client.close()


#: Source markup that must never reach a player: reST roles and literals, Markdown
#: emphasis, code and links.
MARKUP = re.compile(
    r"``|:(?:data|func|class|mod|meth|attr|obj):|`[^`\s][^`]*`|\]\(https?:|(?<![\w*])\*{1,2}[A-Za-z][^*\n]*\*{1,2}(?![\w*])"
)


def every_help_topic() -> list[str]:
    """Every topic ``help`` answers to a logged-in administrator: each command of every
    place (staff's too), each game's rules and topics, also asked as ``<game> <topic>``."""
    from commands.dispatch import IN_THE_LOBBY, STAFF_COMMAND_SETS, in_a_room
    from commands.games import all_game_commands
    from commands.session import help_topics

    sets = (*IN_THE_LOBBY, *(s for _, s in STAFF_COMMAND_SETS))
    sets += tuple(s for game in all_game_commands() for s in in_a_room(game))
    topics = help_topics(tuple(dict.fromkeys(sets)))
    topics += [f"{game} {topic}" for game, commands in all_game_commands().items() for topic in commands.help_topics]
    return topics


async def test_every_help_topic_fits_80_columns_and_shows_no_source_markup(start_server):
    """Issue 45: ``help ys`` showed ``:data:`GEM_CARDS``` and double backquotes, and
    ``help dvorak`` at 80 columns left scraps (``and``, ``repeal``) on lines of their own;
    ``help loadcard``'s example was 84 columns wide. Every topic, as sent at 80 columns."""
    server = await start_server(command_rate=1000.0, command_burst=1000)
    client = await reader_at(server, 80, "Reader")
    topics = every_help_topic()
    assert {"vote", "ys cards", "alchemist", "board", "dvorak", "ys", "gnav"} <= set(topics)
    for topic in topics:
        lines = await framed(client, f"help {topic}")
        assert not lines[0].startswith("There is no help"), topic
        wide = [line for line in lines if len(re.sub(r"\x1b\[[0-9;]*m", "", line)) > 80]
        assert not wide, (topic, wide)
        marked = [line for line in lines if MARKUP.search(line)]
        assert not marked, (topic, marked)
        assert not unfilled(lines, 80), (topic, unfilled(lines, 80))
    await client.close()


def test_the_players_guide_tells_every_ys_action_card_as_help_does():
    """Issue 45: docs/players.md explains each of the 24 action cards, in the words of
    ``help <card>`` (the code is their one home; this keeps the guide in step)."""
    from pathlib import Path

    from commands.ys.render import CARD_HELP, card_help

    guide = (Path(__file__).parent.parent / "docs" / "players.md").read_text(encoding="utf-8")
    for card in CARD_HELP:
        assert f"- {card_help(card)}\n" in guide, card
