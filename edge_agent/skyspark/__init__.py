"""SkySpark over Project Haystack HTTP: the client the tools use, and an embedded simulator.

- `client`: `SkySparkClient` (over phable, SCRAM-SHA-256, retries, timeouts, name resolution).
- `encoding`: Haystack literals (Zinc scalars, grids, Haystack JSON) — the only way values enter a filter.
- `filters`: the Haystack filter language: parser, AST, renderer and evaluator.
- `dataset`: the deterministic synthetic plant (records + histories as a pure function of point and time).
- `simulator`: an HTTP server speaking the Haystack API as SkySpark does, with SCRAM auth.
"""
