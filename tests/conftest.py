from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
EXPECT = re.compile(r"#\s*expect:\s*([A-Z0-9, ]+)")


@pytest.fixture(autouse=True)
def _no_shared_cache(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests never touch a cache in the repository; each session gets a private one."""
    monkeypatch.setenv("STALE_STATE_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "stale-state-cache"))


def expected_findings(root: Path) -> set[tuple[str, int, str]]:
    """(relative path, line, code) for every `# expect: CODE[, CODE]` comment under root."""
    expected = set()
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = EXPECT.search(line)
            if match:
                for code in re.findall(r"SS\d+", match.group(1)):
                    expected.add((os.path.relpath(path, root), number, code))
    return expected
