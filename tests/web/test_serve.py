"""``blackout serve`` refuses what it cannot do in one line, before starting anything."""

from __future__ import annotations

from blackout.cli.main import main


def test_serve_refuses_several_workers_on_sqlite(tmp_path, capsys):
    assert main(["serve", "--db", f"sqlite:///{tmp_path / 'x.db'}", "--workers", "2"]) == 2
    error = capsys.readouterr().err
    assert "needs a PostgreSQL database" in error and error.count("\n") == 1


def test_serve_says_what_is_wrong_with_a_database_url(capsys):
    assert main(["serve", "--db", "nonsense://"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("blackout: ") and "Traceback" not in error


def test_serve_refuses_a_negative_pace(tmp_path, capsys):
    assert main(["serve", "--db", f"sqlite:///{tmp_path / 'x.db'}", "--bot-pace", "-1"]) == 2
    assert "--bot-pace" in capsys.readouterr().err
