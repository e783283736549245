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



README = DOCS.parent / "README.md"
PAGES = [README, *sorted(DOCS.glob("*.md"))]


def test_docs_name_their_sources_not_paths_or_internal_notes() -> None:
    # Issue 19.16: a clone has no ../shared/seeds/ and no /tmp/decisions.md.
    for page in PAGES:
        text = page.read_text()
        for leak in ("shared/seeds", "/tmp/", "the lead decided", "decisions.md"):
            assert leak not in text.lower(), (page.name, leak)
    rules = (DOCS / "rules.md").read_text()
    sources = rules.split("## Sources", 1)[1].split("\n## ", 1)[0]
    for name in ('"Partnership Blackout", contributed by Scott Mayes', "3rd May 2004",
                 "the network Blackout server's help", '"How to Play Blackout"', "2015",
                 '"Potomac Blackout Home Page"', "July 26, 1999 by Wei-Hwa Huang",
                 "Oh Pshaw"):
        assert name in sources, name


def test_readme_commands_run_from_the_quick_starts_venv() -> None:
    # A bare `blackout` is on PATH only once the venv is activated.
    text = README.read_text()
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL):
        lines = [line for line in block.splitlines() if line.strip()]
        bare = [i for i, line in enumerate(lines) if line.startswith("blackout ")]
        activated = [i for i, line in enumerate(lines) if "bin/activate" in line]
        assert not bare or (activated and activated[0] < bare[0]), block
    for line in re.findall(r"^    (.*)$", text, flags=re.MULTILINE):
        assert not re.search(r"(^|&& )blackout ", line), line
