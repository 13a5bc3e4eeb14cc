"""A group commit's own cost on the event loop (``python -m bench batch``, :mod:`bench.batch`)."""

from __future__ import annotations

import pytest
from alembic.script import ScriptDirectory

from bench import batch
from bench.__main__ import main
from persistence.database import Database, alembic_config


async def test_a_batch_s_cost_is_timed_on_a_migrated_database_and_changes_nothing(database_url):
    figures = await batch.batch_cost(database_url, 25)
    assert figures["batches"] == 25
    assert figures["loop_cpu_us_per_batch"] > 0 and figures["wall_us_per_batch"] > 0
    database = Database(database_url)
    try:
        assert await database.revision() == ScriptDirectory.from_config(alembic_config()).get_current_head()
    finally:
        await database.dispose()


def test_the_command_refuses_no_batches(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["batch", "--batches", "0"])
    assert stop.value.code == 2
    assert "--batches must be at least 1" in capsys.readouterr().err
