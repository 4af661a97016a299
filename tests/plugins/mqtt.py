"""Fixtures for the mqtt tests (real components started for the test session)."""
