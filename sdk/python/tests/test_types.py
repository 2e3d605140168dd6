"""The package is typed: mypy --strict passes on it and on the README's script, and the
generated models catch a wrong key, type or call (Debian's python3-mypy)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from test_readme import README, blocks

PACKAGE = Path(__file__).resolve().parents[1]

# Mistakes a type checker must point out, each on the line it marks.
MISTAKES = '''
from goodfund import AsyncGoodfund, Goodfund, models

client = Goodfund("http://localhost:3000", token="t")
client.create_campaign("demo", {"titel": "Typo"})  # error
client.create_campaign("demo", {"title": "Coats", "goalAmountCents": "5000"})  # error
client.list_campaigns("demo", status="LIVE")  # error
client.get_campaign()  # error
campaign: models.Campaign = client.get_campaign("cmp_1")
campaign["raisedAmount"]  # error
title: int = campaign["title"]  # error
for donation in client.iter_donations("demo", status="SUCCEEDED"):
    donation["amount"] + "cents"  # error


async def main(a: AsyncGoodfund) -> None:
    a.list_campaigns("demo")["data"]  # error
    async for plan in a.iter_recurring_plans("demo"):
        plan["amount"] + 1
'''


def test_mypy_strict_passes_on_the_package_and_the_readme_script_and_flags_mistakes(tmp_path: Path) -> None:
    try:
        import mypy  # noqa: F401
    except ImportError:
        pytest.fail("mypy is needed for this test: apt-get install python3-mypy")
    section = README.read_text().split("## A script: the demo organization's campaigns", 1)[1].split("\n## ", 1)[0]
    (script,) = blocks("python", section)
    (tmp_path / "list_campaigns.py").write_text(script)
    (tmp_path / "mistakes.py").write_text(MISTAKES)
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", str(PACKAGE / ".mypy_cache"),
         "goodfund", str(tmp_path / "list_campaigns.py"), str(tmp_path / "mistakes.py")],
        cwd=PACKAGE,
        capture_output=True,
        text=True,
    )
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    flagged = sorted({int(m.group(1)) for line in errors if (m := re.search(r"mistakes\.py:(\d+): error", line))})
    expected = [n for n, line in enumerate(MISTAKES.splitlines(), start=1) if line.endswith("# error")]
    assert [e for e in errors if "mistakes.py" not in e] == []
    assert flagged == expected, run.stdout
