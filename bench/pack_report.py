"""Pack a report's per-run dump folders (`runs/`, one JSON per run) into one compressed archive each.

A report folder under bench/reports/ keeps what a reader opens (README.md, report.md, results.json, plots);
the per-run dumps behind it (hundreds of files per report) go into `runs.tar.xz` beside where `runs/` was.
The archive is deterministic (sorted names, zero mtimes and owners), so packing again changes nothing.
A README that mentions `runs/` gets one line naming the archive and how to unpack it.
`tests/test_bench_reports.py` fails while a report keeps a folder of loose run dumps.

    .venv/bin/python bench/pack_report.py [REPORT_DIR ...]     # default: every folder in bench/reports/
    .venv/bin/python bench/pack_report.py --unpack REPORT_DIR  # runs.tar.xz → runs/ again (for bench/recheck.py)
"""

from __future__ import annotations

import argparse
import io
import lzma
import shutil
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "bench" / "reports"
DUMP_DIR = "runs"
ARCHIVE = "runs.tar.xz"
NOTE = (
    f"The per-run dumps (`{DUMP_DIR}/`) are packed in `{ARCHIVE}` beside each place they were: "
    f"`tar -xJf {ARCHIVE}` (or `bench/pack_report.py --unpack DIR`) restores `{DUMP_DIR}/`."
)


def dump_dirs(report: Path) -> list[Path]:
    return sorted(p for p in report.rglob(DUMP_DIR) if p.is_dir() and any(p.iterdir()))


def _reset(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
    return info


def pack(folder: Path) -> Path:
    """`folder` (a runs/ dir) → `folder.parent/runs.tar.xz`, checked against the files, then the folder removed."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path in files:
            tar.add(path, arcname=str(path.relative_to(folder.parent)), filter=_reset)
    out = folder.parent / ARCHIVE
    out.write_bytes(lzma.compress(buf.getvalue(), preset=9 | lzma.PRESET_EXTREME))
    with tarfile.open(out, "r:xz") as tar:  # every file is in the archive, byte for byte, before anything goes
        for path in files:
            member = tar.extractfile(str(path.relative_to(folder.parent)))
            assert member is not None and member.read() == path.read_bytes(), path
    shutil.rmtree(folder)
    return out


def note_readme(report: Path) -> None:
    readme = report / "README.md"
    if readme.is_file() and NOTE not in readme.read_text():
        readme.write_text(readme.read_text().rstrip("\n") + "\n\n" + NOTE + "\n")


def unpack(report: Path) -> None:
    for archive in sorted(report.rglob(ARCHIVE)):
        with tarfile.open(archive, "r:xz") as tar:
            tar.extractall(archive.parent, filter="data")
        print(f"unpacked {archive.relative_to(ROOT)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("reports", nargs="*", type=Path, help="report folders (default: all of bench/reports/)")
    ap.add_argument("--unpack", action="store_true", help="restore runs/ from runs.tar.xz instead")
    args = ap.parse_args()
    reports = [p.resolve() for p in args.reports] or sorted(p for p in REPORTS.iterdir() if p.is_dir())
    for report in reports:
        if args.unpack:
            unpack(report)
            continue
        packed = [pack(folder) for folder in dump_dirs(report)]
        if packed:
            note_readme(report)
        for out in packed:
            print(f"packed {out.relative_to(ROOT)} ({out.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
