"""Accounts over real connections: create, connect, names, passwords, throttling, restarts."""

from __future__ import annotations

import asyncio
import logging
import threading

from sqlalchemy import select

from persistence.models import Account
from tests.conftest import WELCOME_END, log_in
from tests.players import loosely


async def test_create_then_connect_after_logout(connect):
    alice = await connect()
    await log_in(alice, "Alice")
    assert "Welcome, Alice! Your player has been created." in alice.transcript
    await alice.command("LOGOUT", WELCOME_END)
    await alice.command("connect alice secret1", r"Welcome back, Alice\.")
    await alice.expect(r"Players here: Alice\.")


async def test_names_are_unique_whatever_their_case(connect):
    first, second = await connect(), await connect()
    await log_in(first, "Alice")
    await second.command("create ALICE otherpass", r"The name 'ALICE' is taken")
    await second.command("WHO", r"1 player connected")


async def test_a_name_that_looks_like_another_players_is_refused(connect):
    # "AIice" (a capital I), "A1ice", "Alice." and "Al ice" used to be new players who
    # could pass for Alice in every line the table reads.
    first, second = await connect(), await connect()
    await log_in(first, "Alice")
    for lookalike in ("AIice", "A1ice", "Alice.", '"Al ice"', "AL-ICE"):
        shown = lookalike.strip('"')
        await second.command(f"create {lookalike} otherpass", rf"The name '{shown}' looks too much like Alice's\.")
    await second.command("create Adrnin otherpass", r"'Adrnin' is reserved")
    await second.command("create Adm1n otherpass", r"'Adm1n' is reserved")
    await second.command("create Al1ce otherpass", r"The name 'Al1ce' looks too much like Alice's\.")
    await second.command('create "Announcement from" otherpass', r"would read as the server's announcements")
    await second.command("WHO", r"1 player connected")
    await log_in(second, "Alina")  # a name of its own, if near


async def test_quoted_name_with_spaces_is_accepted(connect):
    jo, friend = await connect(), await connect()
    await jo.command('create "Jo Smith" secret1', r"Welcome, Jo Smith!")
    await log_in(friend, "Friend")
    await friend.command("page jo smith=hello", r"You paged Jo Smith with 'hello'\.")
    await jo.expect(r"Friend pages: hello")
    await jo.command("LOGOUT", WELCOME_END)
    await jo.command('connect "jo smith" secret1', r"Welcome back, Jo Smith\.")


async def test_invalid_names_and_passwords_are_refused_with_the_rule(connect):
    client = await connect()
    await client.command("create A secret1", r"A name is 2-20 characters")
    await client.command("create 9lives secret1", r"A name is 2-20 characters")
    await client.command('create "Two  Spaces" secret1', r"A name is 2-20 characters")
    await client.command("create Averyveryverylongname1 secret1", r"A name is 2-20 characters")
    await client.command("create me secret1", r"'me' is reserved")
    # Words the server's lines use for someone, or a role's name, would make lines lie.
    for name in ('"The Lobby"', "You", '"a former player"', "Neutral", "Admin", "Staff", "Someone"):
        await client.command(f"create {name} secret1", r"is reserved; choose another name")
    await client.command("create Bob abc", r"A password is 4-128 characters long")
    await client.command("create", r"Usage: create <name> <password>")
    await client.command("WHO", r"0 players connected")


async def test_wrong_password_is_refused(connect):
    alice = await connect()
    await log_in(alice, "Alice")
    intruder = await connect()
    await intruder.command(
        "connect Alice wrongpass", r"Either that player does not exist, or has a different password\."
    )
    await intruder.command(
        "connect Nobody secret1", r"Either that player does not exist, or has a different password\."
    )
    await intruder.command("say hi", r"You are not logged in")


async def test_failed_logins_are_throttled_per_address(start_server, connect):
    server = await start_server(login_failure_limit=3, login_failure_window=30.0)
    owner = await connect(server)
    await log_in(owner, "Alice")
    guesser = await connect(server)
    for _ in range(3):
        await guesser.command("connect Alice guess", r"different password")
    await guesser.command(
        "connect Alice secret1",
        loosely("Too many failed logins from your address (3 wrong passwords in 30 seconds, room passwords included)."),
    )
    await guesser.expect(r"Try again in\s+\d+ seconds\.")
    # The refusal is for the address, so a new connection from it is refused too.
    other = await connect(server)
    await other.command("connect Alice secret1", r"Too many failed logins")
    assert "Welcome back" not in guesser.transcript + other.transcript


async def test_password_change(connect):
    alice = await connect()
    await log_in(alice, "Alice")
    await alice.command("@password wrong=newsecret", r"That is not your current password; it is unchanged\.")
    await alice.command("@password secret1=no", r"A password is 4-128 characters long")
    await alice.command("@password secret1", r"Usage: @password <old>=<new>")
    await alice.command("@password secret1=newsecret", r"Your password has been changed\.")
    await alice.command("LOGOUT", WELCOME_END)
    await alice.command("connect Alice secret1", r"different password")
    await alice.command("connect Alice newsecret", r"Welcome back, Alice\.")


async def test_passwords_are_stored_only_as_argon2id_hashes_and_never_logged(server, connect, caplog):
    caplog.set_level(logging.DEBUG)
    alice = await connect()
    await log_in(alice, "Alice", password="hunter2-secret")
    await alice.command("@password hunter2-secret=other-secret", r"changed")
    await alice.command("LOGOUT", WELCOME_END)
    await alice.command("connect Alice wrong-secret", r"different password")
    async with server.database.snapshot() as connection:
        stored = (await connection.execute(select(Account.password_hash))).scalar_one()
    assert stored.startswith("$argon2id$")
    for secret in ("hunter2-secret", "other-secret", "wrong-secret"):
        assert secret not in stored
        assert secret not in caplog.text
    assert "failed login as 'Alice'" in caplog.text
    assert "login Alice" in caplog.text


async def test_two_connections_to_one_account_both_receive_output(connect):
    home, phone, bob = await connect(), await connect(), await connect()
    await log_in(home, "Alice")
    await log_in(bob, "Bob")
    await phone.command("connect Alice secret1", r"Welcome back, Alice\.")
    await home.expect(r"Your player has also logged in from 127\.0\.0\.1\.")
    await bob.command("say hi both", r'You say, "hi both"')
    await home.expect(r'Bob says, "hi both"')
    await phone.expect(r'Bob says, "hi both"')
    await phone.command("say from the phone", r'You say, "from the phone"')
    await home.expect(r'You say, "from the phone"')
    await bob.command("WHO", r"2 players connected")
    # Closing one connection leaves the player online on the other.
    await phone.close()
    await bob.command("say still there?", r"You say")
    await home.expect(r'Bob says, "still there\?"')
    assert "Alice has disconnected" not in bob.transcript
    await home.command("QUIT", r"Goodbye")
    await bob.expect(r"Alice has disconnected\.")


async def test_accounts_survive_a_restart(start_server, connect):
    first = await start_server()
    alice = await connect(first)
    await log_in(alice, "Alice")
    await alice.close()
    await first.stop()
    second = await start_server()
    again = await connect(second)
    await again.command("connect ALICE secret1", r"Welcome back, Alice\.")


async def test_password_hashing_does_not_block_other_players(server, connect, monkeypatch):
    """While one login's hash is being computed, everyone else is still served."""
    alice, bob = await connect(), await connect()
    await log_in(alice, "Alice")
    await log_in(bob, "Bob")
    release = threading.Event()
    hashing = threading.Event()

    class SlowHasher:
        """The real hasher, except that hashing waits until the test releases it."""

        def __init__(self, real):
            self.real = real

        def hash(self, password: str) -> str:
            hashing.set()
            release.wait(10)
            return self.real.hash(password)

        def __getattr__(self, name):
            return getattr(self.real, name)

    monkeypatch.setattr(server.accounts, "_hasher", SlowHasher(server.accounts._hasher))
    newcomer = await connect()
    newcomer.send("create Carol secret1")
    await asyncio.get_running_loop().run_in_executor(None, hashing.wait, 10)
    await alice.command("say still responsive", r'You say, "still responsive"')
    await bob.expect(r'Alice says, "still responsive"')
    assert "Welcome, Carol" not in newcomer.transcript
    release.set()
    await newcomer.expect(r"Welcome, Carol!")
    await alice.expect(r"Carol has connected\.")


async def test_a_password_asked_for_on_its_own_line_is_not_echoed_and_never_taken_as_a_command(connect):
    client = await connect()
    await client.command("create Alice", r"Choose a password for Alice:")
    await client.command("s3cret-word", r"Welcome, Alice!")
    await client.command("LOGOUT", WELCOME_END)
    await client.command("connect Alice", r"Password for Alice:")
    await client.command("wrong-guess", r"Either that player does not exist, or has a different password\.")
    await client.command("connect alice", r"Password for alice:")
    await client.command("s3cret-word", r"Welcome back, Alice\.")
    # A raw client that never negotiated is not sent telnet echo commands.
    assert b"\xff\xfb\x01" not in client.raw


class CountingHasher:
    """The real hasher, noting every hash a password is checked against."""

    def __init__(self, real):  # type: ignore[no-untyped-def]
        self.real = real
        self.checked: list[str] = []

    def verify(self, password_hash: str, password: str) -> bool:
        self.checked.append(password_hash)
        return self.real.verify(password_hash, password)

    def __getattr__(self, name):  # type: ignore[no-untyped-def]
        return getattr(self.real, name)


async def test_simultaneous_wrong_passwords_are_counted_before_any_is_checked(start_server, connect, monkeypatch):
    # 19 guesses sent at once from one address: only as many as the limit are ever
    # checked against the hash; the others are refused without hashing.
    server = await start_server(login_failure_limit=5, login_failure_window=60.0)
    owner = await connect(server)
    await log_in(owner, "Alice")
    hasher = CountingHasher(server.accounts._hasher)
    monkeypatch.setattr(server.accounts, "_hasher", hasher)
    guessers = [await connect(server) for _ in range(19)]
    for guesser in guessers:
        guesser.send("connect Alice guess")
    replies = [await guesser.expect(r"different password|Too many failed logins") for guesser in guessers]
    assert sum("Too many" in reply.group() for reply in replies) == 14
    assert len(hasher.checked) == 5


async def test_a_right_password_is_not_counted_as_a_failure(start_server, connect):
    server = await start_server(login_failure_limit=2, login_failure_window=60.0)
    alice = await connect(server)
    await log_in(alice, "Alice")
    for _ in range(4):
        await alice.command("LOGOUT", WELCOME_END)
        await alice.command("connect Alice secret1", r"Welcome back, Alice\.")


async def test_a_missing_name_takes_as_long_to_refuse_as_a_wrong_password(server, connect, monkeypatch):
    # Both are checked against an argon2 hash: the name's own, or a decoy.
    owner = await connect()
    await log_in(owner, "Alice")
    hasher = CountingHasher(server.accounts._hasher)
    monkeypatch.setattr(server.accounts, "_hasher", hasher)
    guesser = await connect()
    await guesser.command("connect Alice wrong1", r"different password")
    await guesser.command("connect Nobody wrong1", r"different password")
    checked = hasher.checked
    assert len(checked) == 2 and all(h.startswith("$argon2id$") for h in checked) and checked[0] != checked[1]


async def test_a_password_typed_where_the_name_goes_is_not_logged(connect, caplog):
    caplog.set_level(logging.INFO)
    alice = await connect()
    await log_in(alice, "Alice")
    mistaken = await connect()
    await mistaken.command("connect hunter22", r"Password for hunter22:")
    await mistaken.command("Alice", r"different password")
    await mistaken.command("connect Alice hunter33", r"different password")
    assert "hunter22" not in caplog.text
    assert "failed login as a name that is no player's" in caplog.text
    assert "failed login as 'Alice'" in caplog.text


async def test_one_address_makes_only_so_many_players_an_hour(start_server, connect):
    server = await start_server(accounts_per_address=3)
    maker = await connect(server)
    for name in ("Ann", "Bea", "Cid"):
        await maker.command(f"create {name} secret1", rf"Welcome, {name}!")
        await maker.command("LOGOUT", WELCOME_END)
    await maker.command(
        "create Dot secret1", r"3 players have been made from your address in the last hour, the most there\s+may\s+be"
    )
    # Made at once from several connections: still no more than that.
    others = [await connect(server) for _ in range(4)]
    for i, other in enumerate(others):
        other.send(f"create Extra{i} secret1")
    for other in others:
        await other.expect(r"the most there\s+may\s+be")
    await maker.command("connect Ann secret1", r"Welcome back, Ann\.")
    async with server.database.snapshot() as connection:
        assert len((await connection.execute(select(Account.id))).all()) == 3
