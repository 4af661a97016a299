"""Fixtures for the skyspark tests (real components started for the test session)."""
