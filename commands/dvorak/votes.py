"""Inventing the deck together: proposing cards and rules, voting on them by number."""

from __future__ import annotations

import re

from commands.base import CommandError, CommandSet, Context
from commands.dvorak.base import CardMove, GameCommand, card_number, hidden_copy_refused, inspect, perform
from commands.dvorak.render import card_entries, card_full, card_label, card_list, none_listed, render_proposal
from commands.dvorak.storage.tables import card_versions
from commands.social import refuse_if_muted
from commands.tables import current_room, writing
from commands.text import page_number, page_of
from games.dvorak.deckformat import DefinitionError, parse_card_definition, parse_rule_definition
from games.dvorak.rules import Table
from games.dvorak.state import APPROVE, REJECT, REJECTED, RULES
from i18n import N_, _, ngettext
from server.safety import PlayerSafety


class NewCard(GameCommand):
    """Propose a new card; the table votes on it.

    It gets the next number and everyone sees it; the table votes with "approve <num>" or
    "repeal <num>". Accepted, it is shuffled into the draw pile; rejected, it goes to the
    rejected pile. Type A is an Action, T a Thing; any other word is shown as written and
    played like a Thing.

    Several newcard (and newrule) lines pasted as one long line are each proposed, at most
    20 a line; one that is refused says why and the others still go in.
    """

    key = "newcard"
    usage = ("newcard <name>/<A|T|type>/<text>",)

    async def run(self, ctx: Context, args: str) -> None:
        try:
            card = parse_card_definition(args)
        except DefinitionError as error:
            raise CommandError(_with_usage(error, self.usage[0])) from None
        refuse_if_muted(ctx)
        actor = ctx.player.account_id
        async with writing(ctx, "writes", 1):
            await perform(ctx, lambda table: table.propose_card(actor, card.name, card.kind, card.text, card.colour))


class NewRule(GameCommand):
    """Propose a special rule; the table votes on it.

    Accepted, it is in force at once and listed by "rules". A rule is not a card: it is
    never drawn, held or destroyed.
    """

    key = "newrule"
    usage = ("newrule <name>/<text>",)

    async def run(self, ctx: Context, args: str) -> None:
        try:
            rule = parse_rule_definition(args)
        except DefinitionError as error:
            raise CommandError(_with_usage(error, self.usage[0])) from None
        refuse_if_muted(ctx)
        actor = ctx.player.account_id
        async with writing(ctx, "writes", 1):
            await perform(ctx, lambda table: table.propose_rule(actor, rule.name, rule.text))


class Approve(GameCommand):
    """Vote for what is pending about a card.

    A new card or rule, an edit, a removal, or a whole bundle. Only seated players vote;
    proposing counts as approving. Voting the same way twice is refused; "repeal <num>"
    after approving changes your vote.
    """

    key = "approve"
    usage = ("approve <num>",)
    choice = APPROVE

    async def run(self, ctx: Context, args: str) -> None:
        number = card_number(args, self.usage[0])
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.vote(actor, number, self.choice))


class Repeal(Approve):
    """Vote against what is pending about a card.

    Repealing twice is refused; "approve <num>" after repealing changes your vote.
    """

    key = "repeal"
    aliases = ("reject",)
    usage = ("repeal <num>",)
    choice = REJECT


class ViewVote(GameCommand):
    """List what is waiting for a vote, and who voted.

    Shows who voted which way, and who has yet to vote. A voter who is disconnected is
    marked "(away)". Once away longer than the server's grace period (5 minutes unless the
    server says otherwise), they are not counted until they are back, and are listed as
    "away, not counted". A long list is shown a page at a time: "viewvote 2" shows the
    second page.
    """

    key = "viewvote"
    usage = ("viewvote", "viewvote <page>")

    async def run(self, ctx: Context, args: str) -> None:
        room, author = current_room(ctx), ctx.services.get(PlayerSafety).author
        rest, page = page_number(args)
        if rest:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage_text()))

        def look(table: Table) -> str:
            if not table.state.proposals:
                return _("Nothing is waiting for a vote.")
            policy = table.policy()
            if table.ccg and policy != table.settings["vote"]:
                policy = _("{policy}, as always for a CCG set").format(policy=policy)
            here = room.present()
            voters = [
                table.name_of(a) if a in here else _("{name} (away)").format(name=table.name_of(a))
                for a in table.voters()
            ]
            absent = [seat.name for seat in table.state.active_seats() if seat.absent]
            if absent:
                counted = _("voters: {names}; away, not counted: {absent}")
            else:
                counted = _("voters: {names}")
            counted = counted.format(names=", ".join(voters) or _("nobody"), absent=", ".join(absent))
            entries = []
            listed: set[int] = set()
            for proposal in table.state.proposals.values():
                if proposal.id in listed:
                    continue
                group = table.state.bundle_of(proposal)
                listed.update(p.id for p in group)
                entries.append(render_proposal(table, group, detailed=True, author=author))
            heading = _("Waiting for a vote (policy: {policy}; {voters}):").format(policy=policy, voters=counted)
            return f"{heading}\n{page_of(entries, page, 'viewvote')}"

        ctx.reply(await inspect(ctx, look))


class ViewRejected(GameCommand):
    """List the rejected cards and rules.

    "revote <num>" puts one to the vote again. A long list is shown a page at a time:
    "viewrep 2" shows the second page.
    """

    key = "viewrep"
    usage = ("viewrep", "viewrep <page>")

    async def run(self, ctx: Context, args: str) -> None:
        rest, page = page_number(args)
        if rest:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage_text()))

        def look(table: Table) -> str:
            rejected = list(table.state.pile(REJECTED))
            count = len(rejected)
            heading = ngettext("Rejected ({n} card):", "Rejected ({n} cards):", count).format(n=count)
            return f"{heading}\n" + page_of(card_entries(table, rejected), page, "viewrep", none_listed())

        ctx.reply(await inspect(ctx, look))


class Rules(GameCommand):
    """List the special rules in force."""

    key = "rules"

    async def run(self, ctx: Context, args: str) -> None:
        def look(table: Table) -> str:
            rules = list(table.state.pile(RULES))
            if not rules:
                return _("No special rules are in force. Propose one with: newrule <name>/<text>")
            return _("Special rules in force:") + "\n" + card_list(table, rules)

        ctx.reply(await inspect(ctx, look))


_EDIT = re.compile(r"#?(\d+)\s*/(.*)", re.DOTALL)


class EditCard(GameCommand):
    """Propose new words for a card or special rule.

    The card may be anywhere, a rejected one too. Accepted, it changes in place;
    "cardhistory <num>" shows its earlier versions.
    """

    key = "editcard"
    usage = ("editcard <num>/<name>/<type>/<text>",)

    async def run(self, ctx: Context, args: str) -> None:
        match = _EDIT.fullmatch(args.strip())
        if match is None:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage[0]))
        number = int(match.group(1))
        try:
            face = parse_card_definition(match.group(2))
        except DefinitionError as error:
            raise CommandError(_with_usage(error, self.usage[0])) from None
        actor = ctx.player.account_id
        refuse_if_muted(ctx)
        async with writing(ctx, "writes", 1):
            await perform(ctx, lambda table: table.propose_edit(actor, number, face.name, face.kind, face.text))


class RemoveCard(CardMove):
    """Propose taking a card (or rule) out of the game.

    Accepted, the card is gone from every pile, or the special rule is no longer in force.
    """

    key = "removecard"
    usage = ("removecard <num>",)
    rules_method = "propose_removal"


class Withdraw(CardMove):
    """Call off your proposal.

    The host may call off any.
    """

    key = "withdraw"
    usage = ("withdraw <num>",)
    rules_method = "withdraw"


class Revote(CardMove):
    """Put a rejected card or rule to the vote again.

    After a game, say, as the rules' aftermath suggests.
    """

    key = "revote"
    usage = ("revote <num>",)
    rules_method = "revote"


class Bundle(GameCommand):
    """Lump pending proposals into one vote.

    Approving or repealing any of them decides them all: for when sides block each other's
    cards. The vote starts afresh, you approving: a vote cast the same way on each of them
    (their proposer's, when one player proposed them all) still counts. A proposal
    withdrawn from a bundle leaves the rest to a new vote, together.
    """

    key = "bundle"
    usage = ("bundle <num> <num> ...",)

    async def run(self, ctx: Context, args: str) -> None:
        numbers = [card_number(word, self.usage[0]) for word in args.replace(",", " ").split()]
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.bundle(actor, numbers))


class CardHistory(GameCommand):
    """Show every version of a card.

    As it was made and after each accepted edit.
    """

    key = "cardhistory"
    usage = ("cardhistory <num>",)

    async def run(self, ctx: Context, args: str) -> None:
        number = card_number(args, self.usage[0])
        room = current_room(ctx)
        viewer = ctx.player.account_id
        label = await inspect(ctx, lambda table: card_label(hidden_copy_refused(table, number, viewer)))
        versions = (await card_versions(ctx.rooms.store.database, room.id, number)).get(number, [])
        lines = [_("History of {card}:").format(card=label)]
        for version in versions:
            face = card_full(version.as_card(number))
            made = _("version {version}, {when} UTC: {card}")
            lines.append(
                "  " + made.format(version=version.version, when=f"{version.created_at:%Y-%m-%d %H:%M}", card=face)
            )
        ctx.reply("\n".join(lines))


def _with_usage(error: DefinitionError, usage: str) -> str:
    """Why a card as typed cannot be read, and how it is typed."""
    return _("{refusal} Usage: {usage}").format(refusal=error, usage=usage)


VOTE_COMMANDS = CommandSet(
    N_("Voting"),
    [
        NewCard(),
        NewRule(),
        Approve(),
        Repeal(),
        ViewVote(),
        ViewRejected(),
        Rules(),
        EditCard(),
        RemoveCard(),
        Withdraw(),
        Revote(),
        Bundle(),
        CardHistory(),
    ],
)
