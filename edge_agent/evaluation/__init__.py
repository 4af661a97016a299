"""The evaluation code behind `edge-agent bench`: task files, the exact checker, the runner and the report. The
benchmarks and task sets it runs are data in `bench/` at the project's root (docs/bench.md)."""
