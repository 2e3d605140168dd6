"""`pip install ./sdk/python` works: the project builds a wheel holding the package, its
generated modules and the py.typed marker, with httpx as its dependency."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]


def test_pip_builds_a_typed_wheel_of_the_package(tmp_path: Path) -> None:
    # Built from a copy, so the checkout gets no build/ or egg-info of setuptools'.
    source = tmp_path / "src"
    shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("tests", "__pycache__", ".*_cache", "build", "*.egg-info"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--quiet", str(source), "-w", str(tmp_path / "dist")],
        check=True,
        capture_output=True,
    )
    (wheel,) = (tmp_path / "dist").glob("goodfund-0.1.0-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read("goodfund-0.1.0.dist-info/METADATA").decode()
    for module in ("__init__.py", "_client.py", "_operations.py", "models.py", "webhooks.py", "py.typed"):
        assert f"goodfund/{module}" in names
    assert not any(name.startswith("tests/") for name in names)
    assert "Requires-Python: >=3.10" in metadata
    assert "Requires-Dist: httpx (>=0.23)" in metadata or "Requires-Dist: httpx>=0.23" in metadata
