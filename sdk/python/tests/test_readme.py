"""The README's script, run as the README says against the real server: the token command in
the repository, then the script, saved as `list_campaigns.py`, lists the demo's campaigns."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from goodfund import Goodfund

from conftest import ROOT, Server

README = Path(__file__).resolve().parents[1] / "README.md"


def blocks(language: str, text: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.S | re.M)


def test_the_readme_script_lists_the_demo_organizations_campaigns(server: Server, tmp_path: Path) -> None:
    text = README.read_text()
    section = text.split("## A script: the demo organization's campaigns", 1)[1].split("\n## ", 1)[0]
    (script,) = blocks("python", section)
    (shell,) = blocks("sh", section)
    token_line, run_line = shell.strip().splitlines()
    assert token_line == 'export GOODFUND_TOKEN="$(npm run -s token -- --email demo@goodfund.local)"'
    assert run_line == "python3 list_campaigns.py"

    # The token command, verbatim, in the repository (with the test server's data directory).
    token = subprocess.run(
        ["bash", "-c", f'{token_line} && printf %s "$GOODFUND_TOKEN"'], cwd=ROOT, env=server.env, capture_output=True, text=True, check=True
    ).stdout
    assert token.count(".") == 4  # a JWE, as next-auth issues them

    # The script where it was saved; `python3` is this interpreter (the one with httpx), the package from this checkout.
    (tmp_path / "list_campaigns.py").write_text(script)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    env = {
        **os.environ,
        "GOODFUND_TOKEN": token,
        "GOODFUND_URL": server.url,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "sdk/python"), os.environ.get("PYTHONPATH")])),
    }
    run = subprocess.run(["bash", "-c", run_line], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()

    client = Goodfund(server.url, token=token)
    org = client.get_organization("demo")
    campaigns = client.list_campaigns("demo")["data"]
    assert campaigns
    assert lines[0] == f"{org['name']} ({org['currency']})"
    assert len(lines) == 1 + len(campaigns)
    for line, campaign in zip(lines[1:], campaigns):
        assert campaign["title"] in line
        assert line.startswith(campaign["status"])
        # Amounts move while the demo's history plays in the background; their format does not.
        assert re.search(r": [\d,]+\.\d\d raised from \d+ gifts$", line), line
