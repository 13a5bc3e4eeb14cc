"""The language catalogs are complete where they must be, and every translation fits:
Czech and Slovak have every text of the code; every language has the texts of getting
in, the lobby and the help index; no translation loses a placeholder or is wider than a
screen (server.translations checks; ``dvorak-mush translations check`` prints it)."""

from __future__ import annotations

import pytest

from i18n import LANGUAGES
from server import translations


@pytest.fixture(scope="module")
def template():
    return translations.template()


@pytest.mark.parametrize("code", translations.COMPLETE)
def test_czech_and_slovak_have_every_text_of_the_code(code, template):
    assert [str(problem) for problem in translations.problems(code)] == []


@pytest.mark.parametrize("code", [code for code in LANGUAGES if code != "en"])
def test_every_language_has_getting_in_the_lobby_and_the_help_index(code):
    assert [str(problem) for problem in translations.problems(code, translations.EVERY_LANGUAGE)] == []


def test_the_check_finds_a_missing_translation_a_lost_placeholder_and_a_line_too_wide(tmp_path, monkeypatch):
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalog = Catalog(locale="cs", domain="mush")
    catalog.add("Welcome back, {name}.", "Vítej zpět.")
    catalog.add("Say what?", "")
    catalog.add("Pose what?", "  " + "x" * 79)
    catalog.add("Emit what?", "y" * 100)  # prose: filled to the reader's window
    folder = tmp_path / "cs" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "mush.po").open("wb") as po:
        write_po(po, catalog)
    monkeypatch.setattr(translations, "LOCALE_DIR", tmp_path)
    found = {
        problem.message: problem.what
        for problem in translations.problems("cs", ("commands/login.py", "commands/social.py"))
    }
    assert found["Welcome back, {name}."] == "its {placeholders} differ from the English"
    assert found["Say what?"] == "not translated"
    assert found["Pose what?"] == "a line is wider than 80 columns"
    assert "Emit what?" not in found


def test_every_text_of_the_template_is_in_the_committed_template(template):
    """The committed i18n/locale/mush.pot is what ``translations extract`` makes now (a
    text changed in the code and not extracted would reach no translator)."""
    committed = translations.read_template()
    assert sorted(str(m.id) for m in template if m.id) == sorted(str(m.id) for m in committed if m.id)


def test_no_text_to_translate_is_written_inside_an_f_string():
    """Babel does not look inside an f-string: a ``_("...")`` there reaches no catalog,
    and no translator (WHO's headings were once written so)."""
    import ast

    found = []
    for package in translations.SOURCES:
        for path in (translations.ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.JoinedStr):
                    continue
                for call in ast.walk(node):
                    named = isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                    marked = named and call.func.id in translations.KEYWORDS and bool(call.args)
                    if marked and isinstance(call.args[0], ast.Constant):
                        found.append(f"{path.relative_to(translations.ROOT)}:{call.lineno}")
    assert found == []
