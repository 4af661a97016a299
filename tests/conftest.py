"""Shared pytest setup; each area's fixtures live in tests/plugins/<area>.py."""

pytest_plugins = [
    "tests.plugins.common",
    "tests.plugins.llm",
    "tests.plugins.skyspark",
    "tests.plugins.mqtt",
    "tests.plugins.console",
]
