"""Players keeping safe from each other, over real connections: ignoring a player (their
chat and pages stop reaching you, across logins and in rooms, but never the game),
reporting one to the staff (and the staff reading and closing reports), a host muting
and barring spectators, and deleting one's own player after a cool-off (its cards stay,
their author "a former player", and the audit stays sound). Hostile input for each."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update

from commands.dvorak.storage.models import PlayerDeck
from persistence.accounts import AccountStore
from persistence.models import Account
from persistence.player_safety import IgnoreStore, TooManyIgnored
from persistence.staff_log import StaffLog
from server.audit import check_rooms, replay_rooms
from tests.client import MudClient
from tests.conftest import WELCOME_END
from tests.players import ScriptedPlayer, flat

#: A cool-off short enough for a test to see a deletion done: half a second.
TINY_COOLOFF_DAYS = 0.5 / 86400


async def players(server, *names: str) -> list[ScriptedPlayer]:
    return [await ScriptedPlayer.connect(server.port, name) for name in names]


async def marker(speaker: ScriptedPlayer, listeners: list[ScriptedPlayer], word: str) -> None:
    """``speaker`` says ``word`` and each listener waits for it: whatever was sent to them
    before it (from the same node) has arrived by then."""
    await speaker.ask(f"say {word}")
    for listener in listeners:
        await listener.client.wait_for(f'{speaker.name} says, "{word}"')


async def log_out(player: ScriptedPlayer) -> None:
    player.client.send("QUIT")
    await player.client.wait_closed()


async def make_staff(server, name: str, role: str = "moderator") -> ScriptedPlayer:
    """A player made staff before they log in (a role is read at login)."""
    staff = await ScriptedPlayer.connect(server.port, name)
    await log_out(staff)
    assert await AccountStore(server.database).set_role(name, role) is not None
    return await ScriptedPlayer.connect(server.port, name, create=False)


async def assert_sound(server) -> None:
    reports = await check_rooms(server.database) + await replay_rooms(server.database)
    assert reports and [r.problems for r in reports if r.problems] == []


# -- ignore --------------------------------------------------------------------------------


async def test_an_ignored_players_chat_and_pages_stop_reaching_you_even_after_logging_in_again(start_server):
    server = await start_server()
    ann, ben, cy = await players(server, "Ann", "Ben", "Cy")
    assert "You ignore nobody." in flat(await ann.ask("ignore"))
    assert "You ignore Ben: what they say, pose or emit and their pages no longer reach you." in flat(
        await ann.ask("ignore ben")
    )
    await ben.ask("say hidden-say")
    await ben.ask("pose hidden-pose")
    await ben.ask(";'s hidden-semipose")
    await ben.ask("@emit hidden-emit")
    assert flat(await ben.ask("page Ann=hidden-page")) == "Ann is not accepting pages from you."
    assert flat(await ben.ask("page Ann=:hidden-posed-page")) == "Ann is not accepting pages from you."
    assert "You paged Cy with 'shown-page'." in flat(await ben.ask("page Cy=shown-page"))
    await cy.client.wait_for("Ben pages: shown-page")
    for seen in ('Ben says, "hidden-say"', "Ben hidden-pose", "Ben's hidden-semipose", "hidden-emit"):
        await cy.client.wait_for(seen)
    await marker(cy, [ann], "marker-one")
    assert "hidden" not in ann.client.transcript
    assert "Ben" in flat(await ann.ask("WHO"))  # ignoring hides chat, not the player
    assert flat(await ann.ask("ignore")) == "You ignore 1 player (at most 100): Ben."

    await log_out(ann)
    ann = await ScriptedPlayer.connect(server.port, "Ann", create=False)
    await ben.ask("say hidden-again")
    await marker(cy, [ann], "marker-two")
    assert "hidden" not in ann.client.transcript

    assert flat(await ann.ask("unignore Be")) == "You no longer ignore Ben."
    await ben.ask("say heard-again")
    await ann.client.wait_for('Ben says, "heard-again"')
    assert "You paged Ann" in flat(await ben.ask("page Ann=heard-page"))
    await ann.client.wait_for("Ben pages: heard-page")


async def test_ignore_refuses_what_it_cannot_do_and_changes_nothing(start_server):
    server = await start_server()
    ann, ben = await players(server, "Ann", "Ben")
    staff = await make_staff(server, "Mod")
    assert flat(await ann.ask("ignore Ann")) == "You cannot ignore yourself."
    assert flat(await ann.ask("ignore me")) == 'There is no player called "me".'
    assert flat(await ann.ask("ignore Nobody")) == 'There is no player called "Nobody".'
    assert flat(await ann.ask("ignore " + "x" * 300)).startswith('There is no player called "xxxx')
    refused = flat(await ann.ask("ignore Mod"))
    assert "Mod is staff, and staff cannot be ignored" in refused and "report Mod=<what happened>" in refused
    await ann.ask("ignore Ben")
    assert flat(await ann.ask("ignore BEN")) == "You already ignore Ben."
    assert flat(await ann.ask("unignore")).startswith("Usage: unignore <player>")
    assert flat(await ann.ask("unignore Mod")) == 'You ignore nobody called "Mod". (ignore lists whom you ignore.)'
    assert flat(await ann.ask("ignore")) == "You ignore 1 player (at most 100): Ben."
    # Staff reach everyone: ignoring them is refused, and what they say carries no speaker.
    await staff.ask("say from-staff")
    await ann.client.wait_for('Mod says, "from-staff"')
    # Ignoring each other is no loop: each simply stops hearing the other.
    await ben.ask("ignore Ann")
    await ann.ask("say ann-to-nobody")
    await ben.ask("say ben-to-nobody")
    await marker(staff, [ann, ben], "after-both")
    assert "ben-to-nobody" not in ann.client.transcript and "ann-to-nobody" not in ben.client.transcript


async def test_a_player_may_ignore_only_so_many(database_url):
    from persistence.database import Database

    database = Database(database_url)
    try:
        await database.upgrade()
        accounts = AccountStore(database)
        ids = [(await accounts.create(f"P{i}", "hash")).id for i in range(4)]
        ignores = IgnoreStore(database)
        assert await ignores.add(ids[0], ids[1], limit=2)
        assert not await ignores.add(ids[0], ids[1], limit=2)  # already: no second row
        assert await ignores.add(ids[0], ids[2], limit=2)
        try:
            await ignores.add(ids[0], ids[3], limit=2)
        except TooManyIgnored:
            pass
        else:
            raise AssertionError("a third ignore was taken")
        assert await ignores.ignored_ids(ids[0]) == {ids[1], ids[2]}
    finally:
        await database.dispose()


async def test_in_a_room_an_ignored_players_talk_is_hidden_even_when_missed_but_their_moves_are_not(start_server):
    server = await start_server()
    ann, ben, cy = await players(server, "Ann", "Ben", "Cy")
    await ann.ask("newroom Den")
    await ann.ask("loadcard Box/T/Holds things.")
    await ann.ask("ignore Ben")
    await ben.ask("join Den")
    await cy.ask("watch Den")
    await ann.client.wait_for("Ben takes a seat")  # a move of the game: shown
    await ben.ask("say hidden-in-room")
    await ben.ask("newcard Hat/T/Worn.")
    await ann.client.wait_for("Hat")  # his proposal is a move: everyone at the table sees it
    await cy.client.wait_for('Ben says, "hidden-in-room"')
    await marker(cy, [ann], "room-marker")
    assert "hidden" not in ann.client.transcript
    # Ann drops: what is said meanwhile is kept for her, but not what Ben said.
    await ann.close()
    await cy.client.wait_for("Ann has disconnected; the seat is kept.")
    await ben.ask("say hidden-while-away")
    await cy.ask("say shown-while-away")
    back = await MudClient.open(server.port)
    await back.expect(WELCOME_END)
    back.send("connect Ann secret1")
    await back.expect(r"While you were away:")
    await back.expect(r'Cy says, "shown-while-away"')
    await back.quiet(0.3)
    assert "hidden" not in back.transcript
    await back.close()


# -- report --------------------------------------------------------------------------------


async def test_a_report_reaches_the_staff_who_read_and_close_it_and_the_reported_player_never_knows(start_server):
    server = await start_server()
    ann, ben = await players(server, "Ann", "Ben")
    staff = await make_staff(server, "Mod")
    await ann.ask("newroom Den")
    made = flat(await ann.ask("report Ben=He spams the table."))
    assert made == "Thank you: your report about Ben is with the staff (report #1). Ben is not told who made it."
    await staff.client.wait_for(r"\[Staff\] New report #1, about Ben: type @reports to read it\.")
    listing = await staff.ask("@reports")
    assert "Open reports, the newest first (1):" in listing
    assert "Ann about Ben, in room Den:" in flat(listing) and "He spams the table." in listing
    assert "@reports/close <number>" in flat(await staff.ask("help @reports"))
    closed = flat(await staff.ask("@reports/close 1=Warned him."))
    assert closed == "Report #1 about Ben is closed."
    assert "There are no open reports" in flat(await staff.ask("@reports"))
    assert "[closed" in flat(await staff.ask("@reports all")) and "by Mod]" in flat(await staff.ask("@reports all"))
    entry = (await StaffLog(server.database).recent(5))[0]
    assert (entry.actor_name, entry.action, entry.target, entry.reason) == (
        "Mod",
        "close report",
        "Ben",
        "report #1: Warned him.",
    )
    await ben.ask("look")
    assert "report" not in ben.client.transcript.lower() and "Ann about" not in ben.client.transcript


async def test_reports_are_refused_when_hostile_or_too_many_and_only_staff_read_them(start_server):
    server = await start_server()
    ann, ben = await players(server, "Ann", "Ben")
    staff = await make_staff(server, "Mod")
    usage = "Usage: report <player>=<what happened>"
    assert flat(await ann.ask("report")) == usage
    assert flat(await ann.ask("report Ben")) == usage
    assert flat(await ann.ask("report =spam")) == usage
    assert flat(await ann.ask("report Ben=")) == f"What happened? {usage}"
    assert flat(await ann.ask("report Ann=me")) == "You cannot report yourself."
    assert flat(await ann.ask("report Nobody=x")) == 'There is no player called "Nobody".'
    assert "at most 1000 characters (yours has 1001)" in flat(await ann.ask("report Ben=" + "y" * 1001))
    for i in range(5):
        assert f"(report #{i + 1})" in flat(await ann.ask(f"report Ben=number {i}"))
    throttled = flat(await ann.ask("report Ben=one too many"))
    assert "You have made 5 reports in the last hour, the most you may" in throttled
    assert "You may report again in 60 minutes." in throttled
    # Not staff: the staff's command is unknown to them, switch or not.
    for line in ("@reports", "@reports all", "@reports/close 1"):
        said = flat(await ann.ask(line))
        assert said.startswith("Huh?") and "@reports" not in said
    assert "@reports" not in flat(await ann.ask("help"))
    assert flat(await staff.ask("@reports/close 99")) == "There is no report #99."
    for line in ("@reports/close", "@reports/close abc", "@reports/close 1.5", "@reports/close -1"):
        assert flat(await staff.ask(line)) == "Which report? Usage: @reports/close <number>=<note>"
    assert "A note is at most 200 characters." in flat(await staff.ask("@reports/close 1=" + "n" * 201))
    assert "There is no @reports/frob." in flat(await staff.ask("@reports/frob 1"))
    assert "Usage: @reports" in flat(await staff.ask("@reports everything"))
    assert flat(await staff.ask("@reports/close #1")) == "Report #1 about Ben is closed."
    assert flat(await staff.ask("@reports/close 1")) == "Report #1 is closed already (by Mod)."
    assert "Open reports, the newest first (4):" in await staff.ask("@reports")


# -- a host's spectators ---------------------------------------------------------------------


async def test_a_host_mutes_a_spectator_for_good_and_lets_them_talk_again(start_server):
    server = await start_server()
    ann, ben, cy = await players(server, "Ann", "Ben", "Cy")
    await ann.ask("newroom Den")
    await cy.ask("join Den")
    await ben.ask("watch Den")
    assert flat(await ann.ask("mutespec")) == "Nobody is muted or barred in room Den."
    muted = flat(await ann.ask("mutespec be"))
    assert muted == "You mute Ben here: they may watch, but not talk. To let them: unmutespec Ben"
    await ben.client.wait_for("The host of room Den has muted you: you may watch, but not talk here.")
    refusal = "The host of room Den has muted you here: you may watch, but not talk."
    for line in ("say hi", '"hi', "pose waves", ":waves", ";'s hat", "@emit Boo"):
        assert refusal in flat(await ben.ask(line)), line
    # A seat would free them to talk (seated players always may): it is refused.
    assert "has muted you there: you may watch, but not sit down until they unmute you" in flat(
        await ben.ask("join Den")
    )
    assert refusal in flat(await ben.ask("say seated now?"))  # still a muted spectator
    await ann.ask("say still-heard")
    await ben.client.wait_for('Ann says, "still-heard"')  # muted, not deaf
    assert flat(await ann.ask("mutespec")) == "Muted here: Ben."
    # Hostile or mistaken: nobody else is muted, and nothing changes.
    assert flat(await cy.ask("mutespec Ben")) == "Only the host (Ann) can do that."
    assert flat(await ann.ask("mutespec Ann")) == "You cannot mute yourself."
    assert "Cy is seated here: only spectators can be muted" in flat(await ann.ask("mutespec Cy"))
    assert flat(await ann.ask("mutespec Nobody")) == 'Nobody called "Nobody" is watching here.'
    assert flat(await ann.ask("mutespec Ben")) == "Ben is muted here already."
    assert flat(await ann.ask("unmutespec Cy")) == 'Nobody called "Cy" is muted here. (mutespec lists them.)'
    assert "Usage: unmutespec <spectator>" in flat(await ann.ask("unmutespec"))
    # It lasts through a reconnect and a restart of the server.
    await ben.close()
    await ann.close()
    await cy.close()
    await server.stop()
    server = await start_server()
    ben = await ScriptedPlayer.connect(server.port, "Ben", create=False)
    assert "You are back watching room Den" in ben.client.transcript
    assert refusal in flat(await ben.ask("say after the restart"))
    ann = await ScriptedPlayer.connect(server.port, "Ann", create=False)
    assert flat(await ann.ask("unmutespec Ben")) == "Ben may talk here again."
    await ben.client.wait_for("The host of room Den lets you talk here again.")
    assert flat(await ben.ask("say free")) == 'You say, "free"'
    await ben.ask("leave")
    await ben.ask("join Den")
    assert flat(await ann.ask("mutespec Ben")).startswith("Ben is seated here")


async def test_a_spectator_the_host_kicks_cannot_come_back_until_allowed(start_server):
    server = await start_server()
    ann, ben, cy = await players(server, "Ann", "Ben", "Cy")
    staff = await make_staff(server, "Mod")
    await ann.ask("newroom Den")
    await cy.ask("join Den")
    await ben.ask("watch Den")
    await staff.ask("watch Den")
    kicked = flat(await ann.ask("kick Ben"))
    assert "Ben may not come back to watch or sit here until you type: allowspec Ben" in kicked
    await ben.client.wait_for("Ann, the host, has removed you from room Den: you may not come back.")
    assert flat(await ben.ask("watch Den")) == "The host of room Den has barred you from it."
    assert flat(await ben.ask("join Den")) == "The host of room Den has barred you from it."
    assert flat(await ann.ask("mutespec")) == "Barred from here: Ben."
    # A seated player is only removed, as before; staff are only shown out.
    await ann.ask("kick Cy")
    assert "Seats" in flat(await cy.ask("join Den"))
    assert "allowspec" not in flat(await ann.ask("kick Mod"))
    assert "Watching: Mod" in flat(await staff.ask("watch Den"))
    assert (
        flat(await ann.ask("allowspec Nobody")) == 'Nobody called "Nobody" is barred from here. (mutespec lists them.)'
    )
    assert "Usage: allowspec <player>" in flat(await ann.ask("allowspec"))
    assert flat(await cy.ask("allowspec Ben")) == "Only the host (Ann) can do that."
    assert flat(await ann.ask("allowspec ben")) == "Ben may come back to room Den."
    assert "Watching: Mod, Ben." in flat(await ben.ask("watch Den"))
    await assert_sound(server)


# -- deleting one's own player ---------------------------------------------------------------


async def test_delete_asks_for_the_password_and_can_be_called_off(start_server):
    server = await start_server()
    ann = (await players(server, "Ann"))[0]
    staff = await make_staff(server, "Mod")
    assert "Your player is not to be deleted. To delete it: @delete me=<password>" in flat(await ann.ask("@delete"))
    assert flat(await ann.ask("@delete me")) == "Give your password, to be sure it is you: @delete me=<password>"
    assert flat(await ann.ask("@delete Mod=secret1")) == "You can delete only your own player: @delete me=<password>"
    assert flat(await ann.ask("@delete me=wrong")) == "That is not your password, so nothing is changed."
    assert (
        flat(await ann.ask("@delete/cancel secret1")) == "Your player is not to be deleted: there is nothing to cancel."
    )
    assert "Usage: @delete me=<password>" in flat(await ann.ask("@delete/frob"))
    assert "Staff cannot delete their player" in flat(await staff.ask("@delete me=secret1"))
    asked = flat(await ann.ask("@delete me=secret1"))
    assert asked.startswith("Your player will be deleted at ")
    assert asked.endswith("to keep it, type: @delete/cancel <password>")
    when = (datetime.now(UTC) + timedelta(days=7)).strftime("%Y-%m-%d")
    assert when in asked
    assert "Your player is already to be deleted at" in flat(await ann.ask("@delete Ann=secret1"))
    await log_out(ann)
    ann = await ScriptedPlayer.connect(server.port, "Ann", create=False)
    assert "Your player is to be deleted at" in flat(ann.client.transcript)
    assert "To keep it, type: @delete/cancel <password>" in flat(ann.client.transcript)
    # Calling it off asks for the password too: someone at a session left open cannot.
    assert flat(await ann.ask("@delete/cancel")) == (
        "Give your password, to be sure it is you: @delete/cancel <password>"
    )
    assert flat(await ann.ask("@delete/cancel wrong")) == "That is not your password, so nothing is changed."
    assert "Your player is to be deleted at" in flat(await ann.ask("@delete"))
    assert flat(await ann.ask("@delete/cancel secret1")) == "Your player will not be deleted: it is yours to keep."
    assert "Your player is not to be deleted." in flat(await ann.ask("@delete"))
    async with server.database.snapshot() as connection:
        row = (await connection.execute(select(Account.delete_after, Account.deleted_at))).first()
    assert row is not None and tuple(row) == (None, None)


async def test_wrong_passwords_for_delete_are_throttled_like_logins(start_server):
    server = await start_server(login_failure_limit=3)
    ann = (await players(server, "Ann"))[0]
    for _ in range(3):
        assert flat(await ann.ask("@delete me=wrong")) == "That is not your password, so nothing is changed."
    assert "Too many failed logins from your address" in flat(await ann.ask("@delete me=secret1"))


async def test_a_deleted_players_cards_stay_by_a_former_player_and_their_name_is_free(start_server):
    server = await start_server(account_delete_days=TINY_COOLOFF_DAYS)
    ann, ben = await players(server, "Ann", "Ben")
    await ann.ask("newroom Shop")
    await ann.ask("loadcard Box/T/Holds things.")
    await ben.ask("join Shop")
    assert "By: Ann" in flat(await ben.ask("readcard 1"))
    await ann.ask("ignore Ben")
    assert "Your player will be deleted at" in flat(await ann.ask("@delete me=secret1"))
    await ann.client.wait_for(r"\*\*\* Your player has been deleted, as you asked\. Goodbye\. \*\*\*")
    await ann.client.wait_closed()
    await ben.client.wait_for(r"Ann leaves the table\.")  # her seat given up by the game's own move
    assert "By: a former player" in flat(await ben.ask("readcard 1"))
    assert "a former player" in await ben.ask("exportdeck json")
    assert "Ann" not in flat(await ben.ask("look")).split("Seats")[-1]
    # The name is free, and the new Ann is not the author of the old Ann's card.
    fresh = await ScriptedPlayer.connect(server.port, "Ann", password="another1")
    assert "Welcome, Ann! Your player has been created." in fresh.client.transcript
    assert "By: a former player" in flat(await ben.ask("readcard 1"))
    gone = await MudClient.open(server.port)
    await gone.expect(WELCOME_END)
    gone.send("connect Ann secret1")
    await gone.expect("Either that player does not exist, or has a different password.")
    await gone.close()
    async with server.database.snapshot() as connection:
        rows = (await connection.execute(select(Account.name, Account.name_key, Account.deleted_at))).all()
    deleted = [row for row in rows if row.deleted_at is not None]
    assert [(row.name, row.name_key.split("~")[0]) for row in deleted] == [("Ann", "ann")]
    assert "You ignore nobody." in flat(await fresh.ask("ignore"))
    await assert_sound(server)


async def test_logging_in_after_the_cool_off_deletes_the_player_at_once(start_server):
    server = await start_server()  # a week's cool-off: the server's own sweep waits a minute
    ann, ben = await players(server, "Ann", "Ben")
    await ann.ask("deckbuild")
    assert "Your player will be deleted at" in flat(await ann.ask("@delete me=secret1"))
    await log_out(ann)
    async with server.database.transaction() as connection:
        await connection.execute(update(Account).where(Account.name == "Ann").values(delete_after=datetime(2020, 1, 1)))
        ann_id = await connection.scalar(select(Account.id).where(Account.name == "Ann"))
        await connection.execute(
            PlayerDeck.__table__.insert().values(
                owner_account_id=ann_id,
                name="Mine",
                name_key="mine",
                room_name="Shop",
                set_version=1,
                card_count=0,
                saved_at=datetime.now(UTC),
                data={"cards": []},
            )
        )
    late = await MudClient.open(server.port)
    await late.expect(WELCOME_END)
    late.send("connect Ann secret1")
    await late.expect(r"That player has been deleted, as its owner asked\.")
    late.send("connect Ann secret1")
    await late.expect("Either that player does not exist, or has a different password.")
    await late.close()
    async with server.database.snapshot() as connection:
        decks = (await connection.execute(select(PlayerDeck.name))).all()
    assert decks == []
    assert flat(await ben.ask("page Ann=hello")) == 'There is no player called "Ann".'
