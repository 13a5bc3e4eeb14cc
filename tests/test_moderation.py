"""Staff keeping order: roles and the staff's command sets, boot, bans (of a player, an
address, a network), mutes, locks, new passwords and the audit log, over real
connections; on one node for both database backends, and across two nodes (PostgreSQL
and MQTT, as in tests/test_cluster.py)."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from commands.base import CommandError
from commands.moderation import covers, exact_duration, parse_duration
from persistence.staff_log import StaffLog
from server.app import MushServer
from server.cluster import Cluster
from server.hub import Hub
from server.rooms import RoomRegistry
from tests.client import MudClient
from tests.conftest import WELCOME_END
from tests.players import BEGIN, END, ScriptedPlayer, flat, loosely
from tests.test_cluster import (  # noqa: F401 (broker_url: a fixture the others use)
    HEARTBEAT,
    SECRET,
    broker_url,
    cluster_database,
    eventually,
    prefix,
    start_node,
)

HUH = "Huh?"
#: Every moderator's command, as a player who is no staff might try it.
MODERATOR_LINES = (
    "@boot Ann",
    "@ban Ann=1h",
    "@unban Ann",
    "@bans",
    "@mute Ann",
    "@unmute Ann",
    "@lock Ann",
    "@unlock Ann",
    "@modlog",
)
ADMIN_LINES = ("@newpassword Ann=another1", "@grant Ann=moderator", "@revoke Ann")


async def at_the_door(node: MushServer, source: str | None = None) -> ScriptedPlayer:
    """A framed connection to ``node`` (from ``source``), not logged in."""
    client = await MudClient.open(node.port, source=source)
    await client.expect(WELCOME_END)
    client.send("OUTPUTPREFIX " + BEGIN)
    client.send("OUTPUTSUFFIX " + END)
    return ScriptedPlayer(client, "")


async def staff(node: MushServer, name: str, role: str) -> ScriptedPlayer:
    """A new player ``name`` given ``role`` (as ``dvorak-mush admin grant`` would), logged
    in again so that it counts."""
    member = await ScriptedPlayer.connect(node.port, name)
    assert await node.accounts.store.set_role(name, role) is not None
    await member.ask("LOGOUT")
    assert "Welcome back" in await member.ask(f"connect {name} secret1")
    return member


async def let_in_when_it_ends(node: MushServer, name: str, refused: str, source: str | None = None) -> ScriptedPlayer:
    """Try to connect as ``name`` until it works, each refusal saying ``refused``."""
    door = await at_the_door(node, source)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 20
    while True:
        reply = flat(await door.ask(f"connect {name} secret1"))
        if "Welcome back" in reply:
            door.name = name
            return door
        assert refused in reply, reply
        assert loop.time() < deadline, f"{name} was never let in again: {reply}"
        await asyncio.sleep(0.3)


# -- who has the staff's commands ----------------------------------------------------------


async def test_staff_commands_exist_only_for_staff_of_their_role(start_server):
    server = await start_server()
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    mod = await staff(server, "Mod", "moderator")
    adm = await staff(server, "Adm", "admin")
    for line in (*MODERATOR_LINES, *ADMIN_LINES):
        assert flat(await ann.ask(line)).startswith(HUH), line
    for line in ADMIN_LINES:
        assert flat(await mod.ask(line)).startswith(HUH), line

    index, moderators, admins = [flat(await who.ask("help")) for who in (ann, mod, adm)]
    assert "@ban" not in index and "Staff:" not in index and "@grant" not in index
    assert "Staff: @boot" in moderators and "@modlog" in moderators and "@grant" not in moderators
    assert "Staff: @boot" in admins and "Admin: @grant" in admins and "@newpassword" in admins
    assert "There is no help on" in await ann.ask("help @ban")
    assert "There is no help on" in await mod.ask("help @grant")
    assert "Stop a player speaking in public" in flat(await mod.ask("help @mute"))
    assert "@ban" not in await ann.ask("commands")
    assert "@revoke" in await adm.ask("commands")

    # WHO marks staff; in a game room the staff's commands are still theirs (and no one else's).
    assert loosely("Mod [mod]").search(await ann.ask("WHO"))
    assert loosely("Adm [admin]").search(await ann.ask("WHO"))
    await ann.ask("newroom Den")
    await mod.ask("join Den")
    assert flat(await ann.ask("@bans")).startswith(HUH)
    assert "There are no bans in force." in await mod.ask("@bans")
    # Nobody could do anything: the audit log is empty.
    assert "The audit log has nothing yet." in await adm.ask("@modlog")

    # A role taken away from the command line (which tells no node) is gone from the
    # next staff command on: the database is asked first.
    await server.accounts.store.set_role("Mod", "player")
    assert flat(await mod.ask("@bans")).startswith(HUH)
    assert "@ban" not in await mod.ask("help")
    assert "Mod [mod]" not in flat(await ann.ask("WHO"))


async def test_a_role_taken_away_from_the_command_line_takes_every_staff_power_with_it(start_server):
    # Staff have powers beyond their own commands: they cannot be ignored, a host's mute
    # or bar does not hold them, an administrator deletes anyone's saved deck. The role
    # was checked afresh only before a staff command, so one demoted from the command
    # line kept all of these for as long as they typed none.
    server = await start_server()
    ann, bo = await ScriptedPlayer.connect(server.port, "Ann"), await ScriptedPlayer.connect(server.port, "Bo")
    adm = await staff(server, "Adm", "admin")
    await server.accounts.store.set_role("Adm", "player")
    assert "You ignore Adm" in flat(await ann.ask("ignore Adm"))
    assert flat(await adm.ask("page Ann=still-staff?")) == "Ann is not accepting pages from you."
    await adm.ask("say ignored-now")
    await bo.client.wait_for('Adm says, "ignored-now"')
    await bo.ask("say marker")
    await ann.client.wait_for('Bo says, "marker"')
    assert "ignored-now" not in ann.client.transcript and "still-staff" not in ann.client.transcript
    assert "Adm [admin]" not in flat(await ann.ask("WHO"))


async def test_staff_commands_help_is_filled_and_summed_up_in_one_line(start_server):
    server = await start_server(command_rate=1000.0, command_burst=1000)
    adm = await staff(server, "Adm", "admin")
    index = await adm.ask("help")
    entries = [line for line in index.splitlines() if line.startswith("  @") and line.split()[0][1:] != "@"]
    keys = {line.split()[0] for line in entries}
    assert {"@boot", "@ban", "@unban", "@bans", "@mute", "@unmute", "@lock", "@unlock", "@modlog"} <= keys
    assert {"@grant", "@revoke", "@newpassword"} <= keys
    for entry in entries:
        assert len(entry) <= 80 and entry.endswith("."), entry
    for key in keys:
        assert (await adm.ask(f"help {key}")).startswith(f"Help for {key}:")


# -- one node --------------------------------------------------------------------------------


async def test_a_muted_player_plays_on_pages_only_staff_and_speaks_again_when_the_mute_ends(start_server):
    server = await start_server()
    mod = await staff(server, "Mod", "moderator")
    troll, ann = await ScriptedPlayer.connect(server.port, "Troll"), await ScriptedPlayer.connect(server.port, "Ann")
    await troll.ask("newroom Den")
    await troll.ask("set turns=off")
    for i in range(12):
        await troll.ask(f"loadcard Brick{i}/T/A brick.")
    await ann.ask("join Den")
    await troll.ask("start")
    await troll.ask("@doing trolling")

    muted = flat(await mod.ask("@mute troll=3s flooding the table"))
    assert "Troll is muted until" in muted and "flooding the table" in muted
    await troll.client.expect(loosely("You have been muted by the staff until"))
    for line in ("say hi", '"hi', "pose waves", ":waves", ";'s hat", "@emit boo", "@doing trolling", "page Ann=hi"):
        refusal = flat(await troll.ask(line))
        assert refusal.startswith("You are muted until") and "flooding the table" in refusal, (line, refusal)
    assert "You paged Mod with 'sorry'" in flat(await troll.ask("page Mod=sorry"))
    assert "Troll pages: sorry" in await mod.client.quiet(0.5)
    # WHO is public too: the mute cleared the @doing.
    assert "trolling" not in await ann.ask("WHO")

    await troll.ask("draw")
    card = (await troll.hand())[0]
    assert "You play" in flat(await troll.ask(f"play {card.number}"))
    await ann.client.expect(loosely(f"Troll plays #{card.number}"))
    # The mute ends by itself: Troll may talk again, told nothing.
    await eventually(troll, "say back again", 'You say, "back again"')
    await ann.client.expect(r'Troll says, "back again"')
    said = ann.client.transcript
    assert 'Troll says, "hi"' not in said and "Troll waves" not in said and "boo" not in said
    assert "Mod mute Troll: [3s] flooding the table" in flat(await mod.ask("@modlog troll"))


async def test_hostile_staff_input_gets_a_short_answer_and_changes_nothing(start_server):
    server = await start_server(command_rate=1000.0, command_burst=1000)
    mod = await staff(server, "Mod", "moderator")
    await staff(server, "Mod2", "moderator")
    adm = await staff(server, "Adm", "admin")
    await staff(server, "Adm2", "admin")
    troll, tess = await ScriptedPlayer.connect(server.port, "Troll"), await ScriptedPlayer.connect(server.port, "Tess")
    await (await ScriptedPlayer.connect(server.port, "Ghost")).close()
    refusals = {
        mod: [
            ("@ban", "Usage: @ban"),
            ("@boot", "Usage: @boot"),
            ("@mute =1h", "Usage: @mute"),
            ("@lock *", "Usage: @lock"),
            ("@ban =1h", "Usage: @ban"),
            ("@ban Nobody", 'There is no player called "Nobody".'),
            ("@ban Mod", "You cannot ban yourself."),
            ("@mute mod", "You cannot mute yourself."),
            ("@ban Mod2=1h", "You cannot ban Mod2: they are a moderator."),
            ("@boot Adm", "You cannot boot Adm: they are an administrator."),
            ("@lock Adm=stolen", "You cannot lock Adm: they are an administrator."),
            ("@ban Troll=5x spam", '"5x" is not a length of time. Use e.g. 30s'),
            ("@ban Troll=-5m spam", '"-5m" is not a length of time.'),
            ("@ban Troll=0s", "A length of time is at least 1s."),
            ("@ban Troll=99999999999d", "is not a length of time"),
            ("@ban Troll=400d", "longer than 365d"),
            ("@mute Troll=perm", "A mute lasts at most 365d"),
            ("@mute T=1h", '"T" could be any of: Tess, Troll.'),
            ("@ban 127.0.0.1", "That would ban your own address (127.0.0.1)"),
            ("@ban ::ffff:127.0.0.1=1h", "That would ban your own address (127.0.0.1)"),
            ("@ban 127.0.0.0/24", "That would ban your own address"),
            ("@ban 127.0.0.0/8", "127.0.0.0/8 is too wide to ban"),
            ("@ban 0.0.0.0/0=perm", "is too wide to ban"),
            ("@ban 2001:db8::/16", "is too wide to ban"),
            ("@ban 300.1.2.3", '"300.1.2.3" is not an address or a network'),
            ("@ban 10.0.0.0/33", "is not an address or a network"),
            ("@unban", "Usage: @unban"),
            ("@unban #abc", "is not a ban's number"),
            ("@unban #99", "There is no ban in force on #99"),
            ("@unban #" + "9" * 40, "is not a ban's number"),
            ("@unban Troll", "There is no ban in force on Troll"),
            ("@unban 192.0.2.1", "There is no ban in force on 192.0.2.1"),
            ("@unmute Troll", "Troll is not muted."),
            ("@unlock Troll", "Troll is not locked."),
            ("@boot Ghost", "Ghost is not connected."),
            ("@boot Nobody=bye", 'There is no player called "Nobody".'),
            ("@modlog Nobody", 'There is no player called "Nobody".'),
        ],
        adm: [
            ("@grant Troll", "Usage: @grant"),
            ("@grant Troll=god", "Usage: @grant"),
            ("@grant Adm=moderator", "You cannot change your own role."),
            ("@revoke Adm", "You cannot change your own role."),
            ("@grant Adm2=moderator", "You cannot change the role of Adm2: they are an administrator."),
            ("@revoke Adm2", "they are an administrator"),
            ("@grant Mod=moderator", "Mod is a moderator already."),
            ("@revoke Troll", "Troll has no staff role."),
            ("@newpassword Troll", "Usage: @newpassword"),
            ("@newpassword Troll=abc", "A password is 4-128 characters long."),
            ("@newpassword Adm=another1", "To change your own password, use @password."),
            ("@newpassword Adm2=another1", "they are an administrator"),
            ("@ban Adm2=1h", "You cannot ban Adm2: they are an administrator."),
        ],
    }
    for member, tries in refusals.items():
        for line, refusal in tries:
            assert refusal in flat(await member.ask(line)), line
    assert "There are no bans in force." in await mod.ask("@bans")
    assert "The audit log has nothing yet." in await adm.ask("@modlog")
    assert 'You say, "still here"' in await troll.ask("say still here")

    # Names in any letter case, with MUSH's * before them, or cut short (when only one
    # player online starts so); a huge reason is cut, and the staff member told.
    assert "Troll is muted until" in flat(await mod.ask("@mute *tROLL=10m shouting"))
    cut = flat(await mod.ask("@mute tes=10m " + "x" * 1000))
    assert "Tess is muted until" in cut and "(The reason was cut to 200 characters.)" in cut
    latest = await StaffLog(server.database).recent(2)
    assert [(e.actor_name, e.action, e.target) for e in latest] == [("Mod", "mute", "Tess"), ("Mod", "mute", "Troll")]
    assert latest[0].reason == "[10m] " + "x" * 200
    assert "Troll" in flat(await mod.ask("@unmute troll"))
    assert "Troll is not muted." in flat(await mod.ask("@unmute Troll"))
    await tess.close()


async def test_a_lock_or_mute_made_while_the_password_is_checked_holds_when_the_player_comes_in(
    start_server, monkeypatch
):
    # The account was read before its password was checked (a hash taking a while), and
    # what that read said decided: a lock or mute made meanwhile reached no one (the
    # player was not online yet) and was not seen, so the player came in unlocked, or
    # spoke though muted, until they logged out.
    server = await start_server()
    await (await ScriptedPlayer.connect(server.port, "Mallory")).close()
    mod = await staff(server, "Mod", "moderator")
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    verify = server.accounts._verify
    checking, go = asyncio.Event(), asyncio.Event()

    async def slow_verify(password_hash: str, password: str, *checked_for: object) -> bool:
        checking.set()
        await go.wait()
        return await verify(password_hash, password, *checked_for)

    monkeypatch.setattr(server.accounts, "_verify", slow_verify)

    door = await at_the_door(server)
    asked = asyncio.ensure_future(door.ask("connect Mallory secret1"))
    await checking.wait()
    assert "Mallory is muted" in flat(await mod.ask("@mute Mallory=1h spam"))
    go.set()
    assert "Welcome back" in flat(await asked)
    door.name = "Mallory"
    assert "You are muted until" in flat(await door.ask("say buy gold"))
    await ann.ask("say marker")
    assert "buy gold" not in ann.client.transcript
    await door.close()

    checking.clear()
    go.clear()
    door = await at_the_door(server)
    asked = asyncio.ensure_future(door.ask("connect Mallory secret1"))
    await checking.wait()
    assert "Mallory is locked" in flat(await mod.ask("@lock Mallory=stolen"))
    go.set()
    assert "Mallory is locked by the staff: stolen." in flat(await asked)
    assert "Mallory" not in flat(await ann.ask("WHO"))


async def test_a_locked_account_is_refused_until_unlocked_and_an_admin_sets_a_new_password(start_server, caplog):
    caplog.set_level(logging.INFO)
    server = await start_server()
    adm = await staff(server, "Adm", "admin")
    troll = await ScriptedPlayer.connect(server.port, "Troll")
    assert "Troll has a new password; anyone logged in as them" in await adm.ask("@newpassword troll=brandnew9")
    await troll.client.expect(loosely("The staff have set a new password for your player: log in again with it."))
    await troll.client.wait_closed()  # whoever was logged in as Troll (a thief, say) is out
    door = await at_the_door(server)
    assert "different password" in await door.ask("connect Troll secret1")
    troll = await ScriptedPlayer.connect(server.port, "Troll", "brandnew9", create=False)

    assert "Troll is locked: account stolen." in flat(await adm.ask("@lock Troll=account stolen"))
    await troll.client.expect(loosely("*** Your player has been locked by the staff: account stolen. ***"))
    await troll.client.wait_closed()
    refused = flat(await door.ask("connect Troll brandnew9"))
    assert refused == "Troll is locked by the staff: account stolen. It stays locked until they unlock it."
    assert "Troll is locked already: account stolen." in flat(await adm.ask("@lock Troll"))
    assert "Troll is unlocked" in await adm.ask("@unlock troll")
    assert "Welcome back, Troll." in await door.ask("connect Troll brandnew9")

    log = flat(await adm.ask("@modlog Troll"))
    for entry in ("Adm unlock Troll", "Adm lock Troll: account stolen", "Adm newpassword Troll"):
        assert entry in log
    assert log.index("unlock") < log.index("lock Troll: account") < log.index("newpassword")
    assert "brandnew9" not in caplog.text and "brandnew9" not in log


async def test_an_address_ban_drops_that_address_but_staff_and_ends_by_itself(start_server):
    server = await start_server()
    mod = await staff(server, "Mod", "moderator")
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    troll = await ScriptedPlayer.connect(server.port, "Troll", source="127.0.0.2")
    mod2 = await staff(server, "Mod2", "moderator")  # from 127.0.0.1; moves to .2 below
    await mod2.close()
    mod2 = await at_the_door(server, "127.0.0.2")
    assert "Welcome back" in await mod2.ask("connect Mod2 secret1")
    lurker = await at_the_door(server, "127.0.0.2")

    banned = flat(await mod.ask("@ban 127.0.0.2=3s ban evasion"))
    assert banned.startswith("Ban #1: 127.0.0.2 is banned until") and banned.endswith(": ban evasion.")
    for dropped in (troll.client, lurker.client):
        await dropped.expect(loosely("*** Your address is banned from this server until"))
        await dropped.wait_closed()
    assert "Troll has disconnected" in await ann.client.quiet(0.5)
    assert "There are no bans in force." not in await mod2.ask("@bans")  # staff are not shut out
    sock = await at_the_door(server, "127.0.0.2")
    refused = flat(await sock.ask("create Sock secret1"))
    assert refused.startswith("Your address is banned from this server until") and "ban evasion" in refused
    assert 'There is no player called "Sock"' in await mod.ask("@modlog Sock")
    assert "#1 127.0.0.2 (address), by Mod, until" in flat(await mod.ask("@bans"))

    again = await let_in_when_it_ends(server, "Troll", "Your address is banned", "127.0.0.2")
    assert "Troll" in flat(await again.ask("WHO"))
    assert "There are no bans in force." in await mod.ask("@bans")
    assert "Mod ban 127.0.0.2: [3s] ban evasion" in flat(await mod.ask("@modlog 127.0.0.2"))


async def test_a_network_ban_and_unban_by_number(start_server):
    server = await start_server()
    mod = await staff(server, "Mod", "moderator")
    troll = await ScriptedPlayer.connect(server.port, "Troll", source="127.0.0.9")
    banned = flat(await mod.ask("@ban 127.0.0.9/29=perm open proxies"))
    assert banned == "Ban #1: 127.0.0.8/29 is banned for good: open proxies."
    await troll.client.wait_closed()
    replaced = flat(await mod.ask("@ban 127.0.0.12/29=1h proxies, for now"))
    assert "Ban #2: 127.0.0.8/29 is banned until" in replaced and "It replaces the ban #1." in replaced
    listed = flat(await mod.ask("@bans"))
    assert "#2 127.0.0.8/29 (network), by Mod, until" in listed and "#1" not in listed
    assert "127.0.0.8/29 is no longer banned (ban #2 lifted)." in flat(await mod.ask("@unban #2"))
    door = await at_the_door(server, "127.0.0.10")
    assert "Welcome back" in await door.ask("connect Troll secret1")


# -- two nodes -------------------------------------------------------------------------------


async def test_a_moderator_and_an_administrator_deal_with_a_troublemaker_across_two_nodes(start_node):  # noqa: F811
    north, south = await start_node("north"), await start_node("south")
    adm = await staff(north, "Adm", "admin")
    mod = await ScriptedPlayer.connect(south.port, "Mod")
    troll = await ScriptedPlayer.connect(north.port, "Troll", source="127.0.0.2")
    ann = await ScriptedPlayer.connect(south.port, "Ann")
    await eventually(adm, "WHO", "4 players connected")

    # The administrator, on north, makes Mod (on south) a moderator: at once, there.
    assert "Mod is now a moderator (was a player)." in await adm.ask("@grant Mod=moderator")
    await mod.client.expect(loosely('You are now a moderator: type "help" for the staff commands.'))
    assert "There are no bans in force." in await mod.ask("@bans")
    await eventually(adm, "WHO", "Mod [mod]")
    await eventually(ann, "WHO", "Adm [admin]")
    for line in ADMIN_LINES:
        assert flat(await mod.ask(line)).startswith(HUH)

    # Troll (north) and Ann (south) at a table.
    await troll.ask("newroom Den")
    await troll.ask("set turns=off")
    for i in range(12):
        await troll.ask(f"loadcard Brick{i}/T/A brick.")
    assert "Seats, in turn order" in await ann.ask("join Den")
    await troll.ask("start")

    # Muted from south, on north: no talk, but play goes on.
    assert "Troll is muted until" in flat(await mod.ask("@mute Troll=1h flooding"))
    await troll.client.expect(loosely("You have been muted by the staff until"))
    assert "flooding" in flat(await troll.ask("say hello?"))
    assert "You may not page anyone but staff" in flat(await troll.ask("page Ann=psst"))
    assert "You paged Mod" in await troll.ask("page Mod=why?")
    await mod.client.expect("Troll pages: why?")
    await troll.ask("draw")
    card = (await troll.hand())[0]
    assert "You play" in flat(await troll.ask(f"play {card.number}"))
    await ann.client.expect(loosely(f"Troll plays #{card.number}"))
    assert "Troll may speak in public again." in await mod.ask("@unmute Troll")
    await troll.client.expect("You may speak in public again.")
    assert 'You say, "sorry"' in await troll.ask("say sorry")
    await ann.client.expect('Troll says, "sorry"')

    # Booted from south: the connection on north closes; the seat is kept.
    assert "You boot Troll: take a break." in await mod.ask("@boot troll=take a break")
    await troll.client.expect(loosely("*** You have been disconnected by the staff: take a break. ***"))
    await troll.client.wait_closed()
    await ann.client.expect("Troll has disconnected; the seat is kept.")
    troll = await ScriptedPlayer.connect(south.port, "Troll", create=False, source="127.0.0.2")
    assert "Den" in await troll.ask("look")

    # Banned by name from north: dropped on south, refused on both, until it ends.
    banned = flat(await adm.ask("@ban Troll=1h spamming"))
    assert banned.startswith("Ban #1: Troll is banned until") and banned.endswith(": spamming.")
    await troll.client.expect(loosely("*** You are banned from this server until"))
    await troll.client.wait_closed()
    for node in (north, south):
        refused = flat(await (await at_the_door(node, "127.0.0.2")).ask("connect Troll secret1"))
        assert refused.startswith("Troll is banned from this server until") and refused.endswith("spamming."), refused
    shorter = flat(await mod.ask("@ban Troll=2s last warning"))
    assert "Ban #2: Troll is banned until" in shorter and "It replaces the ban #1." in shorter
    troll = await let_in_when_it_ends(north, "Troll", "last warning", "127.0.0.2")

    # Banned by address from south: Troll's connection on north is dropped, Ann's (another
    # address) is not; nobody new from there; it holds after north restarts.
    assert "Ban #3: 127.0.0.2 is banned until" in flat(await mod.ask("@ban 127.0.0.2=1h ban evasion"))
    await troll.client.expect(loosely("*** Your address is banned from this server until"))
    await troll.client.wait_closed()
    assert "Den" in await ann.ask("look")
    sock = await at_the_door(north, "127.0.0.2")
    assert "ban evasion" in flat(await sock.ask("create Sock secret1"))
    await north.stop()
    north = await start_node("north")
    for node in (north, south):
        refused = flat(await (await at_the_door(node, "127.0.0.2")).ask("connect Troll secret1"))
        assert refused.startswith("Your address is banned from this server until") and "ban evasion" in refused
    assert "127.0.0.2 is no longer banned (ban #3 lifted)." in flat(await mod.ask("@unban 127.0.0.2"))
    troll = await let_in_when_it_ends(north, "Troll", "banned", "127.0.0.2")

    # The audit log has all of it, with the reasons, on any node.
    adm = await ScriptedPlayer.connect(north.port, "Adm", create=False)
    log = (await adm.ask("@modlog")).splitlines()[1:]
    assert [line.split(" ", 2)[2] for line in log] == [
        "Mod unban 127.0.0.2: ban #3",
        "Mod ban 127.0.0.2: [1h] ban evasion",
        "Mod ban Troll: [2s] last warning",
        "Adm ban Troll: [1h] spamming",
        "Mod boot Troll: take a break",
        "Mod unmute Troll",
        "Mod mute Troll: [1h] flooding",
        "Adm grant Mod: moderator",
    ]
    about = flat(await mod.ask("@modlog troll"))
    assert "127.0.0.2" not in about and "Adm ban Troll: [1h] spamming" in about


# -- what other nodes send ---------------------------------------------------------------


async def test_announcements_from_other_nodes_are_checked_and_a_malformed_one_does_nothing(world):
    await world.log_in("Ann")
    ann = world.connections["Ann"]
    player = ann.player
    assert player is not None
    me = player.account_id
    malformed = [
        {"kind": "boot", "account": str(me), "text": "bye"},
        {"kind": "boot", "account": -1, "text": "bye"},
        {"kind": "boot", "account": me},
        {"kind": "boot-address", "network": "127.0.0.0/33", "text": "bye"},
        {"kind": "boot-address", "network": 127, "text": "bye"},
        {"kind": "boot-address", "network": "127.0.0.1", "text": None},
        {"kind": "mute", "account": me, "until": "soon", "reason": "", "text": ""},
        {"kind": "mute", "account": me, "until": float("nan"), "reason": "", "text": ""},
        {"kind": "mute", "account": me, "until": 1e300, "reason": "", "text": ""},
        {"kind": "mute", "account": me, "until": time.time() + 60, "reason": 5, "text": ""},
        {"kind": "role", "account": me, "role": "god", "text": "You are a god."},
        {"kind": "role", "account": me, "role": ["admin"], "text": ""},
        {"kind": "role", "account": me, "role": "admin", "text": 5},
        {"kind": "nonsense"},
    ]
    for announcement in malformed:
        with pytest.raises((KeyError, TypeError, ValueError)):
            world.hub.announced(announcement)
    assert player.role == "player" and player.muted_until is None and not ann.closing
    assert world.take_output()["Ann"] == ""

    # Well formed, with escape sequences: shown without them.
    until = time.time() + 60
    world.hub.announced(
        {"kind": "mute", "account": me, "until": until, "reason": "red\x1b[31m", "text": "M\x1b[31mute\x07"}
    )
    assert player.muted_until is not None and player.mute_reason == "red"
    assert world.take_output()["Ann"] == "Mute"
    world.hub.announced({"kind": "boot-address", "network": "127.0.0.0/8", "text": "Gone."})
    assert ann.closing


def test_the_presence_of_a_node_carries_each_player_s_role_checked():
    hub = Hub()
    rooms = RoomRegistry(None, lambda room, events: None, hub)  # type: ignore[arg-type]
    cluster = Cluster(hub, rooms, "mqtt://127.0.0.1:1", "north", "p", HEARTBEAT, SECRET, lambda gone: None)
    player = {"account": 5, "name": "Mod", "place": "lobby", "since": 0.0, "active": 0.0, "doing": ""}
    cluster._presence("south", {"full": True, "players": [{**player, "role": "moderator"}], "gone": [], "rooms": []})
    assert hub.remote[5].role == "moderator"
    # A node of release 0.1 sends no role: a player.
    cluster._presence("south", {"full": True, "players": [player], "gone": [], "rooms": []})
    assert hub.remote[5].role == "player"
    with pytest.raises(ValueError):
        cluster._presence("east", {"full": True, "players": [{**player, "account": 6, "role": "god"}], "gone": []})
    assert 6 not in hub.remote


@pytest.mark.parametrize(
    ("typed", "seconds"), [("30s", 30), ("30m", 1800), ("2h", 7200), ("7d", 604800), ("1W", 604800), ("1d12h", 129600)]
)
def test_lengths_of_time(typed, seconds):
    assert parse_duration(typed).total_seconds() == seconds
    assert parse_duration(exact_duration(parse_duration(typed))) == parse_duration(typed)


@pytest.mark.parametrize("typed", ["", "5", "5x", "h", "1.5h", "0s", "0m0s", "366d", "1e3s", "٣s"])
def test_what_is_no_length_of_time(typed):
    with pytest.raises(CommandError):
        parse_duration(typed)


def test_which_addresses_a_ban_covers():
    assert covers("127.0.0.2", "127.0.0.2") and covers("127.0.0.2", "::ffff:127.0.0.2")
    assert covers("127.0.0.0/24", "127.0.0.200") and not covers("127.0.0.0/24", "127.0.1.1")
    assert covers("2001:db8::/48", "2001:db8:0:1::5") and not covers("2001:db8::/48", "127.0.0.1")
    assert not covers("127.0.0.2", "unknown") and not covers("nonsense", "127.0.0.2")


async def test_the_audit_log_about_a_player_named_in_other_letters_finds_their_entries(start_server):
    # SQLite's lower() folds only ASCII letters: the log was looked up by it alone.
    server = await start_server()
    mod = await staff(server, "Mod", "moderator")
    sarka = await ScriptedPlayer.connect(server.port, "Šárka")
    assert "Šárka is muted" in flat(await mod.ask("@mute šárka=1h shouting"))
    await sarka.close()
    for typed in ("Šárka", "šárka", "Sarka"):
        shown = flat(await mod.ask(f"@modlog {typed}"))
        assert "newest first" in shown and "mute" in shown.split("newest first", 1)[1], shown
