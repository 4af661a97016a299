"""Reports stay lean: no report keeps a folder of loose per-run dumps (bench/pack_report.py packs them into
`runs.tar.xz`), and every archive named by a report opens and holds run files."""

import tarfile

from edge_agent import PROJECT_ROOT

REPORTS = PROJECT_ROOT / "bench" / "reports"
MAX_FILES_PER_FOLDER = 40  # a report's readable part: README, report.md, results, plots, a few logs


def test_no_report_keeps_a_folder_of_loose_run_dumps():
    loose = [str(p.relative_to(REPORTS)) for p in REPORTS.rglob("runs") if p.is_dir() and any(p.iterdir())]
    assert not loose, f"pack them: .venv/bin/python bench/pack_report.py ({loose})"
    crowded = {
        str(d.relative_to(REPORTS)): n
        for d in [REPORTS, *REPORTS.rglob("*")]
        if d.is_dir()
        for n in [sum(1 for f in d.iterdir() if f.is_file())]
        if n > MAX_FILES_PER_FOLDER
    }
    assert not crowded, f"more than {MAX_FILES_PER_FOLDER} files in one report folder: {crowded}"


def test_packed_dumps_open_and_their_reports_name_the_archive():
    archives = sorted(REPORTS.rglob("runs.tar.xz"))
    assert archives
    for archive in archives:
        with tarfile.open(archive, "r:xz") as tar:
            names = tar.getnames()
        assert names and all(n.startswith("runs/") for n in names), archive
        report = REPORTS / archive.relative_to(REPORTS).parts[0]
        assert "runs.tar.xz" in (report / "README.md").read_text(), report
