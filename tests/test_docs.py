"""The documentation's example records are real: each replays in the engine as shown."""

import json
import re
from pathlib import Path

import blackout

DOCS = Path(__file__).resolve().parent.parent / "docs"


def json_blocks(path: Path) -> list[dict]:
    blocks = re.findall(r"```json\n(.*?)```", path.read_text(), flags=re.DOTALL)
    parsed = []
    for block in blocks:
        try:
            parsed.append(json.loads(block))
        except json.JSONDecodeError:
            continue  # a fragment shown for one field, not a whole record
    return [b for b in parsed if isinstance(b, dict) and b.get("format") == "blackout-record"]


def test_record_format_examples_replay() -> None:
    records = json_blocks(DOCS / "record-format.md")
    assert records, "docs/record-format.md should show at least one complete record"
    for record in records:
        game = blackout.Game.replay(record)
        assert game.record() == record

