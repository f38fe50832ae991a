"""Rewrite every fixture case's snapshot (`expected.txt`) and fixed files (`name.py.fixed`) from what the
package finds and fixes now. Run `.venv/bin/python tests/update_snapshots.py`, then review the diff of fixtures/:
the tests take these files as the truth."""

from __future__ import annotations

from conftest import CASES, FIXED, SNAPSHOT, case_findings, case_fixes, fixed_path, snapshot_text


def main() -> None:
    snapshots = fixed_files = 0
    for case in CASES:
        (case / SNAPSHOT).write_text(snapshot_text(case_findings(case)), encoding="utf-8")
        snapshots += 1
        for stale in case.rglob("*" + FIXED):
            stale.unlink()
        for path, (source, fixed) in case_fixes(case).items():
            if fixed != source:
                fixed_path(path).write_bytes(fixed.encode("utf-8"))
                fixed_files += 1
    print(f"wrote {snapshots} snapshots and {fixed_files} fixed files")


if __name__ == "__main__":
    main()
