"""The IoT benchmark: task files, the exact checker, the runner behind `edge-agent bench`, and the report."""
