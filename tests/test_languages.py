"""Languages over telnet: each player reads the server in their own language (chosen
with ``@language``, kept for their player, or taken from the client's LANG), what
players write stays as written, no text bypasses the catalogs (the pseudo-language
shows it up), and no translated line is wider than the screen."""

from __future__ import annotations

import asyncio
import re

import telnetlib3

from commands.base import find_command
from commands.dispatch import IN_THE_LOBBY
from commands.login import welcome_screen
from games import KINDS
from i18n import PSEUDO, _, in_language, language, said
from server.text import shown_width
from tests.client import MudClient
from tests.conftest import WELCOME_END
from tests.players import BEGIN, END, ScriptedPlayer, flat


def put(code: str, message: str, /, **params: str) -> str:
    """``message`` as a reader of language ``code`` is shown it."""
    return in_language(said(message, **params), code)


def opening(code: str, message: str) -> str:
    """The part of ``message`` in language ``code`` before its first placeholder."""
    with language(code):
        return _(message).split("{", 1)[0]


def assert_fits(transcript: str, width: int = 80) -> None:
    wide = [line for line in transcript.replace("\r", "").split("\n") if shown_width(line) > width]
    assert wide == [], wide


async def test_each_player_reads_the_server_in_their_language_and_what_others_write_as_written(server):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    rehor = await ScriptedPlayer.connect(server.port, "Řehoř")
    chosen = flat(await rehor.ask("@language cs"))
    assert chosen == put("cs", "The server writes to you in {language} from now on.", language="čeština")
    assert chosen != put("en", "The server writes to you in {language} from now on.", language="čeština")

    look = await rehor.ask("look")
    assert look.startswith(put("cs", "The Lobby")) and opening("cs", "Players here: {names}.") in look

    # Talk: each is shown the other's words as written, around them their own language.
    assert flat(await rehor.ask("say Ahoj všichni")) == put("cs", 'You say, "{text}"', text="Ahoj všichni")
    await ann.client.expect(re.escape('Řehoř says, "Ahoj všichni"'))
    await ann.ask("say hello")
    await rehor.client.expect(re.escape(put("cs", '{name} says, "{text}"', name="Ann", text="hello")))
    assert flat(await ann.ask("page Rehor=psst")) == "You paged Řehoř with 'psst'."
    await rehor.client.expect(re.escape(put("cs", "{name} pages: {message}", name="Ann", message="psst")))

    # Help, WHO and a mistyped command, in Czech.
    index = await rehor.ask("help")
    with language("cs"):
        assert index.startswith(_('Type "help <command>" for details of one command, "commands" for a summary.'))
        assert f"{_('Talk')}:" in index
        say_help = find_command(IN_THE_LOBBY, "say")
        assert say_help is not None and say_help[0].summary() in flat(index)
    who = await rehor.ask("WHO")
    assert put("cs", "Player Name") != "Player Name"
    assert who.startswith(put("cs", "Player Name")) and "Řehoř" in who
    assert flat(await rehor.ask("drwa")) == flat(put("cs", 'Huh?  (Type "help" for help.)'))

    # Nobody else is written to in Czech; nothing Řehoř was shown is wider than the screen.
    assert put("cs", "Players here: {names}.", names="") not in ann.client.transcript
    assert_fits(rehor.client.transcript)


async def test_a_language_chosen_before_login_is_kept_for_the_player_and_written_in_from_then_on(server):
    client = await MudClient.open(server.port)
    await client.expect(WELCOME_END)
    client.send("@language sk")
    await client.expect(
        re.escape(put("sk", "The server writes to you in {language} from now on.", language="slovenčina"))
    )
    client.send("@language de")
    await client.expect(re.escape(opening("sk", 'There is no language "{choice}" here. Usage: {usage}')))
    client.send("create Šárka secret1")
    await client.expect(re.escape(put("sk", "Welcome, {name}! Your player has been created.", name="Šárka")))
    client.send("QUIT")
    await client.expect(re.escape(put("sk", "Goodbye. Come back soon!")))
    await client.close()

    # Back, from a client that says nothing of its language: the player's choice holds.
    again = await ScriptedPlayer.connect(server.port, "Šárka", create=False)
    assert put("sk", "Welcome back, {name}.", name="Šárka") in flat(again.client.transcript)
    assert flat(await again.ask("@language")) == put(
        "sk",
        "The server writes to you in {language}. Usage: {usage}",
        language="slovenčina",
        usage="@language cs|sk|en|es|ru",
    )
    assert_fits(again.client.transcript)


async def test_a_telnet_client_s_lang_chooses_the_language_of_its_welcome(start_server):
    # Waiting for the client's answers as a server does, not as briefly as tests do.
    server = await start_server(negotiation_wait=1.0)

    class CzechClient(telnetlib3.TelnetClient):
        DEFAULT_LOCALE = "cs_CZ"

    reader, writer = await telnetlib3.open_connection(
        "127.0.0.1",
        server.port,
        encoding="utf8",
        client_factory=CzechClient,
        connect_minwait=0.05,
        connect_maxwait=1.0,
    )
    received = ""
    try:
        wanted = next(line for line in welcome_screen(80, "cs").split("\n") if line.startswith("  connect"))
        while wanted not in received:
            chunk = await asyncio.wait_for(reader.read(4096), 5)
            assert chunk, received
            received += chunk
    finally:
        writer.close()


#: Words a player types, which no language translates: every command's name and usage.
def _typed_words() -> set[str]:
    words = {"UTC", *KINDS}
    for command_set in (*IN_THE_LOBBY,):
        for command in command_set.commands:
            for form in (command.key, *command.aliases, *command.usage):
                words.update(re.findall(r"[A-Za-z]{3,}", form))
    return words


async def test_no_text_bypasses_the_catalogs_and_none_of_it_reaches_a_reader_of_another_language(server):
    """A player reading the pseudo-language (every translated text accented and 40%
    longer) goes through getting in, the lobby, help, talk, rooms and refusals: an
    unaccented English word in what they are shown is text that bypasses the catalogs
    (player names and words, and command words, aside). A player reading English in the
    same place is shown none of the pseudo-language."""
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    await ann.ask("newroom Parlour=secret")
    await ann.ask("leave")
    client = await MudClient.open(server.port)
    await client.expect(WELCOME_END)
    client.send(f"@language {PSEUDO}")
    client.send("create Zed secret1")
    client.send("OUTPUTPREFIX " + BEGIN)
    client.send("OUTPUTSUFFIX " + END)
    zed = ScriptedPlayer(client, "Zed")
    await zed.ask("@@ ready")
    for line in [
        "look",
        "help",
        "help page",
        "help join",
        "commands",
        "WHO",
        "rooms",
        "games",
        "say Hi there",
        "pose waves",
        "page Ann=Hello friend",
        "page Nobody=hey",
        "@doing Reading",
        "@doing",
        "@charset",
        "@color",
        "@language",
        "join Parlour",
        "join Parlour=wrong",
        "watch Nowhere",
        "newroom Lobby",
        "ignore Ann",
        "ignore",
        "unignore Ann",
        "report Ann",
        "@delete",
        "log",
        "drwa",
        "connect Ann secret1",
        "@password a=b",
    ]:
        await zed.ask(line)
    await ann.ask("say Hello Zed")
    await ann.ask("page Zed=Good evening")
    await client.expect("Good evening")

    allowed = _typed_words() | {"Ann", "Zed", "Parlour", "Hello", "Hi", "there", "friend", "Nobody", "hey", "Reading"}
    allowed |= {
        "Good",
        "evening",
        "waves",
        "Lobby",
        "Nowhere",
        "wrong",
        "secret",
        "Dvorak",
        "Gnav",
        "MUSH",
        "qps",
        "UTF",
    }
    shown = client.transcript.split('create "Jo Smith"', 1)[1].replace(BEGIN, "").replace(END, "")
    bypassing = sorted({word for word in re.findall(r"\b[A-Za-z]{3,}\b", shown) if word not in allowed})
    assert bypassing == [], "\n".join(
        line for line in shown.split("\n") if set(re.findall(r"\b[A-Za-z]{3,}\b", line)) - allowed
    )
    assert_fits(shown)
    # Ann, reading English, was shown nothing of Zed's language.
    seen_by_ann = ann.client.transcript.split('create "Jo Smith"', 1)[1]
    assert "Zed pages: Hello friend" in seen_by_ann and "Zed has connected." in seen_by_ann
    assert not re.search("[ŵţþƀđƒĝĥĵķľɱǫŕûṽẋ]|~~", seen_by_ann), seen_by_ann


async def test_a_command_is_also_typed_by_its_name_in_the_player_s_language(server):
    sarka = await ScriptedPlayer.connect(server.port, "Šárka")
    await sarka.ask("@language cs")
    with language("cs"):
        assert flat(await sarka.ask("nápověda say")) == flat(await sarka.ask("help say"))
        assert _("Also: {aliases}").split("{", 1)[0] in await sarka.ask("help help")
    assert flat(await sarka.ask("napoveda say")) == flat(await sarka.ask("help say"))  # without the accents
    assert (await sarka.ask("KDO")).startswith(put("cs", "Player Name"))
    assert flat(await sarka.ask("řekni Ahoj")) == put("cs", 'You say, "{text}"', text="Ahoj")
    # Another language's names are not this player's: a Slovak word is not a command here.
    assert flat(await sarka.ask("povedz Ahoj")).startswith(
        flat(put("cs", 'Huh?  (Type "help" for help.)')).split("(")[0]
    )


async def test_a_language_chosen_before_one_login_is_not_given_to_the_next_player_on_the_connection(server):
    await ScriptedPlayer.connect(server.port, "Bo")  # Bo has chosen no language
    client = await MudClient.open(server.port)
    await client.expect(WELCOME_END)
    client.send("@language sk")
    client.send("create Ela secret1")
    await client.expect(re.escape(put("sk", "Welcome, {name}! Your player has been created.", name="Ela")))
    client.send("LOGOUT")
    await client.expect(WELCOME_END)
    client.send("connect Bo secret1")
    # Bo is written to in the language the connection had, but it is not kept for Bo.
    await client.expect(re.escape(put("sk", "Welcome back, {name}.", name="Bo")))
    again = await ScriptedPlayer.connect(server.port, "Bo", create=False)
    assert "Welcome back, Bo." in flat(again.client.transcript)
    await client.close()
