"""Fixtures for the llm tests (real components started for the test session)."""
