"""The README's Python examples run as a test, so they stay true."""

from __future__ import annotations

import re
from pathlib import Path


def test_readme_python_blocks_run() -> None:
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
