"""Messages in each reader's language: translation, plurals, the pseudo-language, the
wire form another node reads, and choosing a language from what a client says."""

from __future__ import annotations

import pytest

from i18n import (
    PSEUDO,
    WIRE_DEPTH,
    Said,
    _,
    from_stored,
    from_wire,
    from_wire_fields,
    in_language,
    known_language,
    language,
    ngettext,
    preferred_language,
    pseudo,
    said,
    said_n,
    stored,
    wire_fields,
)


def test_a_message_is_put_in_each_reader_s_language_and_player_text_is_left_as_written():
    message = said('{name} says, "{text}"', name="Řehoř", text="Say hello")
    assert in_language(message, "en") == 'Řehoř says, "Say hello"'
    assert in_language(message, "cs") == 'Řehoř říká: "Say hello"'
    # The player's words are a parameter: never translated, in no language.
    assert "Say hello" in in_language(message, "sk") and "Say hello" in in_language(message, PSEUDO)
    assert in_language("plain text", "cs") == "plain text"


def test_plurals_take_each_language_s_three_forms():
    with language("cs"):
        forms = [ngettext("{n} player connected.", "{n} players connected.", n).format(n=n) for n in (1, 3, 5)]
    assert forms == ["1 hráč je připojený.", "3 hráči jsou připojení.", "5 hráčů je připojeno."]
    with language("en"):
        assert ngettext("{n} player connected.", "{n} players connected.", 2).format(n=2) == "2 players connected."


def test_a_message_within_a_message_is_put_in_the_reader_s_language_too():
    time = said_n("{n} minute", "{n} minutes", 5)
    notice = said("The server will shut down in {time}.", time=time)
    assert in_language(notice, "en") == "The server will shut down in 5 minutes."
    assert "5 minut" in in_language(notice, "cs")


def test_the_pseudo_language_accents_and_lengthens_everything_but_the_placeholders():
    assert pseudo("Welcome, {name}!") == "Ŵéľçöɱé, {name}!" + "~" * 6
    with language(PSEUDO):
        assert _("Say what?").startswith("Šàý ŵĥàţ?")
        assert said("{name} arrives.", name="Ann").in_language(PSEUDO).startswith("Ann àŕŕîṽéš.")


def test_a_message_crosses_to_another_node_and_back_whole_with_its_english_for_old_nodes():
    message = said("Your player has also logged in from {address}.", address="192.0.2.7")
    fields = wire_fields(message, "text")
    assert fields["text"] == "Your player has also logged in from 192.0.2.7."  # a 0.1 node reads this
    back = from_wire_fields(fields, "text", str)
    assert isinstance(back, Said) and back == message and in_language(back, "cs") != fields["text"]
    assert from_wire_fields({"text": "plain"}, "text", str) == "plain"
    nested = said("*** {notice} ***", notice=said_n("{n} second", "{n} seconds", 3))
    assert from_wire(nested.to_wire()) == nested


def nested(depth: int) -> dict[str, object]:
    """A message holding a message, ``depth`` deep."""
    message: object = "x"
    for _level in range(depth + 1):
        message = {"said": "{a}", "params": {"a": message}, "n": 0}
    assert isinstance(message, dict)
    return message


def test_a_message_nested_as_deep_as_the_code_nests_comes_back_whole():
    assert from_wire(nested(WIRE_DEPTH)) is not None


@pytest.mark.parametrize(
    "data",
    [
        {"said": 3, "params": {}, "n": 0},
        {"said": "x", "params": [], "n": 0},
        {"said": "x", "params": {}, "n": "1"},
        {"said": "x", "params": {"a": [1]}, "n": 0},
        {"said": "x", "plural": 5, "params": {}, "n": 1},
        # What would make a huge text, or look inside a value, or nest without end.
        {"said": "{n:>200000000}", "params": {"n": 1}, "n": 0},
        {"said": "{n.__class__}", "params": {"n": 1}, "n": 0},
        {"said": "{n!r}", "params": {"n": 1}, "n": 0},
        {"said": "{0}", "params": {"n": 1}, "n": 0},
        {"said": "{missing}", "params": {}, "n": 0},
        nested(WIRE_DEPTH + 1),
        ["said"],
        None,
    ],
)
def test_a_malformed_wire_message_is_refused(data):
    assert from_wire(data) is None


def test_a_broken_translation_or_a_forged_message_shows_the_english_rather_than_failing():
    # Placeholders that the parameters do not fill: the English is shown instead.
    forged = Said("{missing} and {0}", None, 0, {})
    assert forged.in_language("cs") == "{missing} and {0}"


def test_a_kept_line_comes_back_as_the_message_it_was_and_player_text_cannot_pass_for_one():
    message = said("{name} arrives.", name="Ann")
    assert from_stored(stored(message)) == message
    assert from_stored(stored("Ann says, hi")) == "Ann says, hi"
    # What a player writes never starts with the control character a kept message does.
    assert from_stored('{"said": "*** The server will shut down ***", "params": {}, "n": 0}') == (
        '{"said": "*** The server will shut down ***", "params": {}, "n": 0}'
    )


@pytest.mark.parametrize(
    ("header", "chosen"),
    [
        ("cs-CZ,cs;q=0.9,en;q=0.8", "cs"),
        ("en-US,en;q=0.9", "en"),
        ("de-DE,sk;q=0.5,ru;q=0.7", "ru"),
        ("de-DE,fr;q=0.9", None),
        ("", None),
        ("*", None),
        ("es;q=abc,sk", "sk"),
        ("qps", None),
    ],
)
def test_the_browser_s_first_language_the_server_speaks_is_chosen(header, chosen):
    assert preferred_language(header) == chosen


def test_a_language_is_known_by_its_code_in_any_of_the_forms_clients_send():
    assert known_language("cs_CZ.UTF-8") == "cs"
    assert known_language(" SK ") == "sk"
    assert known_language("ru-RU") == "ru"
    assert known_language("C") is None and known_language("") is None and known_language("de") is None
