"""Dvorak's own tables: its cards, proposals, votes and card versions, a projection of a
Dvorak table's state kept as rows (so that ``cards`` can be queried, and a card's
history kept), written with each move in the same transaction as the room's event log.

Dvorak's kind names this module as its projection (:data:`PROJECTION`), which the room
engine finds through it (:func:`persistence.room_log.projection_of`); the rest of a Dvorak
table (seats, settings, turn) is stored as every game's is. Its :data:`ACCOUNT_ROWS` are
deleted with an account (:func:`persistence.models.account_rows`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection

from commands.dvorak.storage.models import CardRow, CardVersion, PlayerDeck, ProposalRow, VoteRow
from games.dvorak.state import Card, Proposal, TableState, card_face, proposal_from_dict
from persistence.bulk import Bulk, RowWriter, sqlite_value
from persistence.database import Database

if TYPE_CHECKING:
    from persistence.room_log import Move

_cards = CardRow.__table__
_proposals = ProposalRow.__table__
_votes = VoteRow.__table__
_versions = CardVersion.__table__

PENDING_STATUS = "pending"

#: Dvorak's rows that belong to one account, deleted with it: the CCG decks they built.
ACCOUNT_ROWS = [(PlayerDeck.__table__, "owner_account_id")]


@dataclass(frozen=True)
class CardVersionRecord:
    """One version of a card's face."""

    version: int
    name: str
    kind: str
    text: str
    colour: str
    created_at: datetime
    #: The seq of the event that made it (for a card from a saved deck: that brought it in).
    seq: int

    def as_card(self, number: int) -> Card:
        """This version as a card, for showing it."""
        return Card(number, self.name, self.kind, self.text, colour=self.colour, is_rule=self.kind == "Rule")

    def as_saved(self) -> dict[str, Any]:
        """This version as a saved deck keeps it (JSON-ready; the time in ISO 8601)."""
        return {
            "version": self.version,
            "name": self.name,
            "kind": self.kind,
            "text": self.text,
            "colour": self.colour,
            "created_at": self.created_at.isoformat(),
        }


async def card_versions(
    database: Database, room_id: int, number: int | None = None
) -> dict[int, list[CardVersionRecord]]:
    """The versions of a room's cards (only card ``number``'s, if given), by card number,
    oldest first."""
    where = [_versions.c.room_id == room_id]
    if number is not None:
        where.append(_versions.c.number == number)
    async with database.snapshot() as connection:
        query = select(_versions).where(*where).order_by(_versions.c.number, _versions.c.version)
        rows = (await connection.execute(query)).all()
    histories: dict[int, list[CardVersionRecord]] = {}
    for r in rows:
        histories.setdefault(r.number, []).append(
            CardVersionRecord(r.version, r.name, r.kind, r.text, r.colour, r.created_at, r.seq)
        )
    return histories


_CARD_COLUMNS = ("name", "kind", "text", "zone", "owner", "position", "attached_to", "deck_owner", "colour", "version")
_CARD_INSERT_COLUMNS = (
    "room_id",
    "number",
    "name",
    "kind",
    "text",
    "author_account_id",
    "author_name",
    "zone",
    "owner",
    "position",
    "attached_to",
    "deck_owner",
    "is_rule",
    "colour",
    "version",
    "copy_of",
)
_VERSION_COLUMNS = ("room_id", "number", "version", "name", "kind", "text", "colour", "created_at", "seq")
_INSERT_CARD = Bulk.insert(_cards, _CARD_INSERT_COLUMNS)
_UPDATE_CARD = Bulk.update(_cards, {"room_id": "r", "number": "n"}, _CARD_COLUMNS)
_INSERT_VERSION = Bulk.insert(_versions, _VERSION_COLUMNS)


class DvorakTables:
    """How a Dvorak table's cards, proposals, votes and card versions are read and
    written (see :class:`persistence.room_log.Projection`)."""

    async def load(self, connection: AsyncConnection, room_id: int, state: TableState) -> None:
        """Add the room's cards, pending proposals and their votes to ``state``."""
        card_rows = (
            await connection.execute(
                select(_cards)
                .where(_cards.c.room_id == room_id)
                .order_by(_cards.c.zone, _cards.c.owner, _cards.c.position)
            )
        ).all()
        proposal_rows = (
            await connection.execute(
                select(_proposals)
                .where(_proposals.c.room_id == room_id, _proposals.c.status == PENDING_STATUS)
                .order_by(_proposals.c.id)
            )
        ).all()
        vote_rows = (
            await connection.execute(
                select(_votes)
                .where(_votes.c.room_id == room_id, _votes.c.proposal_id.in_([p.id for p in proposal_rows]))
                .order_by(_votes.c.seq, _votes.c.account_id)
            )
        ).all()
        for c in card_rows:
            state.cards[c.number] = Card(
                c.number,
                c.name,
                c.kind,
                c.text,
                c.author_account_id,
                c.author_name,
                c.zone,
                c.owner,
                c.attached_to,
                c.deck_owner,
                c.is_rule,
                c.colour,
                c.version,
                c.copy_of,
            )
            state.piles.setdefault((c.zone, c.owner), []).append(c.number)
        for p in proposal_rows:
            state.proposals[p.id] = Proposal(
                p.id, p.kind, p.subject, p.proposer_account_id, p.proposer_name, p.face, p.bundle
            )
        for v in vote_rows:
            state.proposals[v.proposal_id].votes[v.account_id] = v.choice

    def write(self, rows: RowWriter, moves: list[Move], now: datetime) -> None:
        """Write what ``moves`` (of different Dvorak rooms) changed of the cards, their
        versions, the proposals and the votes."""
        connection = rows.connection
        new_cards: list[dict[str, Any]] = []
        moved_cards: list[dict[str, Any]] = []
        versions: list[dict[str, Any]] = []
        for move in moves:
            state, changes = move.state, move.changes
            touched = [n for n in changes.touched | changes.created if n in state.cards]
            positions = _positions(state, touched)
            for number in touched:
                row = _card_row(move.room_id, state.cards[number], positions[number])
                if number in changes.created:
                    new_cards.append(row)
                else:
                    moved_cards.append({"r": move.room_id, "n": number, **{c: row[c] for c in _CARD_COLUMNS}})
            for offset, event in enumerate(changes.events, start=1):
                seq = move.expected.seq + offset
                for delta in event.deltas:
                    if delta[0] == "add":
                        history = delta[2] if len(delta) > 2 else []
                        versions += _version_rows(move.room_id, delta[1]["number"], delta[1], history, now, seq)
                    elif delta[0] == "face":
                        face = {**card_face(state.cards[delta[1]]), **delta[2]}
                        versions += _version_rows(move.room_id, delta[1], face, [], now, seq)
                    elif delta[0] in ("propose", "vote", "bundle", "decide"):
                        _store_vote_delta(connection, move.room_id, delta, now, seq)
        rows.write(_INSERT_CARD, new_cards)
        rows.write(_UPDATE_CARD, moved_cards)
        rows.write(_INSERT_VERSION, versions)

    async def row_problems(self, connection: AsyncConnection, room_id: int) -> list[str]:
        """Gaps or repeats in the stored piles' positions."""
        cards = (
            await connection.execute(
                select(_cards.c.zone, _cards.c.owner, _cards.c.position).where(_cards.c.room_id == room_id)
            )
        ).all()
        piles: dict[tuple[str, int], list[int]] = {}
        for zone, owner, position in cards:
            piles.setdefault((zone, owner), []).append(position)
        return [
            f"pile {zone}/{owner} positions are not 0..{len(positions) - 1}: {sorted(positions)}"
            for (zone, owner), positions in sorted(piles.items())
            if sorted(positions) != list(range(len(positions)))
        ]


def _positions(state: TableState, numbers: Iterable[int]) -> dict[int, int]:
    """Each card's index in its pile, computing each touched pile's index once."""
    positions: dict[int, int] = {}
    for number in numbers:
        if number in positions:
            continue
        card = state.cards[number]
        for index, other in enumerate(state.pile(card.zone, card.owner)):
            positions[other] = index
    return positions


def _card_row(room_id: int, card: Card, position: int) -> dict[str, Any]:
    return {
        "room_id": room_id,
        "number": card.number,
        "name": card.name,
        "kind": card.kind,
        "text": card.text,
        "author_account_id": card.author,
        "author_name": card.author_name,
        "zone": card.zone,
        "owner": card.owner,
        "position": position,
        "attached_to": card.attached_to,
        "deck_owner": card.deck_owner,
        "is_rule": card.is_rule,
        "colour": card.colour,
        "version": card.version,
        "copy_of": card.copy_of,
    }


def _version_rows(
    room_id: int, number: int, face: dict[str, Any], history: list[dict[str, Any]], now: datetime, seq: int
) -> list[dict[str, Any]]:
    """The card_versions rows a card's new face makes: the face itself, dated now; for a
    card brought in from a saved deck, its earlier versions too, dated when they were
    made (and the face is dated as saved if the saved deck holds it unchanged)."""
    current = face.get("version", 1)
    faces = {entry["version"]: entry for entry in history if entry["version"] < current}
    saved = next((entry for entry in history if entry["version"] == current), None)
    unchanged = saved is not None and all(saved[key] == face.get(key, "") for key in ("name", "kind", "text", "colour"))
    faces[current] = {**face, "created_at": saved["created_at"] if saved is not None and unchanged else None}
    return [
        {
            "room_id": room_id,
            "number": number,
            "version": version,
            "name": entry["name"],
            "kind": entry["kind"],
            "text": entry["text"],
            "colour": entry.get("colour", ""),
            "created_at": datetime.fromisoformat(entry["created_at"]) if entry.get("created_at") else now,
            "seq": seq,
        }
        for version, entry in sorted(faces.items())
    ]


def _store_vote_delta(connection: Connection, room_id: int, delta: list[Any], now: datetime, seq: int) -> None:
    """Write what a proposal delta changed: a new proposal, a vote, a bundle, a decision."""
    kind = delta[0]
    if kind == "propose":
        proposal = proposal_from_dict(delta[1])
        connection.execute(
            insert(_proposals).values(
                room_id=room_id,
                id=proposal.id,
                kind=proposal.kind,
                subject=proposal.subject,
                proposer_account_id=proposal.proposer,
                proposer_name=proposal.proposer_name,
                face=proposal.face,
                bundle=proposal.bundle,
                status=PENDING_STATUS,
                created_at=now,
                created_seq=seq,
            )
        )
        for account, choice in proposal.votes.items():
            _store_vote(connection, room_id, proposal.id, account, choice, now, seq)
    elif kind == "vote":
        _, proposal_id, account, choice = delta
        _store_vote(connection, room_id, proposal_id, account, choice, now, seq)
    elif kind == "bundle":
        _, ids, bundle = delta
        connection.execute(
            update(_proposals).where(_proposals.c.room_id == room_id, _proposals.c.id.in_(ids)).values(bundle=bundle)
        )
        connection.execute(delete(_votes).where(_votes.c.room_id == room_id, _votes.c.proposal_id.in_(ids)))
    elif kind == "decide":
        _, proposal_id, outcome = delta
        connection.execute(
            update(_proposals)
            .where(_proposals.c.room_id == room_id, _proposals.c.id == proposal_id)
            .values(status=outcome, decided_at=now, decided_seq=seq)
        )


#: A vote's statements, straight to the driver: SQLite's and PostgreSQL's placeholders.
_DELETE_VOTE = "DELETE FROM votes WHERE room_id = ? AND proposal_id = ? AND account_id = ?"
_INSERT_VOTE = "INSERT INTO votes (room_id, proposal_id, account_id, choice, voted_at, seq) VALUES (?, ?, ?, ?, ?, ?)"
_DELETE_VOTE_PG = "DELETE FROM votes WHERE room_id = $1 AND proposal_id = $2 AND account_id = $3"
_INSERT_VOTE_PG = (
    "INSERT INTO votes (room_id, proposal_id, account_id, choice, voted_at, seq) VALUES ($1, $2, $3, $4, $5, $6)"
)


def _store_vote(
    connection: Connection,
    room_id: int,
    proposal_id: int,
    account: int,
    choice: str | None,
    now: datetime,
    seq: int,
) -> None:
    """A vote is the one row most moves of a vote write: as text, without building
    statements (on PostgreSQL prepared once per connection, as :mod:`persistence.bulk`'s)."""
    if connection.dialect.name == "sqlite":
        # Straight to the driver (the same transaction), in the forms SQLAlchemy stores.
        driver = connection.connection.dbapi_connection
        assert driver is not None
        driver.execute(_DELETE_VOTE, (room_id, proposal_id, account))
        if choice is not None:
            driver.execute(_INSERT_VOTE, (room_id, proposal_id, account, choice, sqlite_value(now), seq))
        return
    connection.exec_driver_sql(_DELETE_VOTE_PG, (room_id, proposal_id, account))
    if choice is not None:
        connection.exec_driver_sql(_INSERT_VOTE_PG, (room_id, proposal_id, account, choice, now, seq))


#: Dvorak's own tables, as the room engine reads and writes them.
PROJECTION = DvorakTables()
