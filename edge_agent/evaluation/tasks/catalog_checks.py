"""Checks of what an answer says the SkySpark holds: `answer_lists` and `count` (the names it lists and how many),
`answer_says_missing` (a name that does not exist) and `not_recorded` (an attribute the SkySpark does not hold)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from edge_agent.evaluation.tasks.base import EntityKind, Spec, Words


class EntityQuery(Spec):
    """Names the SkySpark lists: all sites, a site's assets, or an asset's sensors, optionally
    only those whose name contains `name_contains` (case-insensitive)."""

    of: EntityKind
    site: str | None = None
    asset: str | None = None
    name_contains: str | None = None
    kind: str | None = Field(None, description="assets only: those carrying this equip marker (e.g. crac)")
    noun: Words = Field(default_factory=list, description="count: the words that name what is counted")

    @model_validator(mode="after")
    def _scope(self):
        if self.kind and self.of != "assets":
            raise ValueError("`kind` narrows assets only")
        if self.of in ("assets", "sensors") and not self.site:
            raise ValueError(f"listing {self.of} needs `site`")
        if self.of == "sensors" and not self.asset:
            raise ValueError("listing sensors needs `asset`")
        return self


class CountCheck(EntityQuery):
    """The answer states how many entities there are (e.g. the sensors of an asset), the number bound to what is
    counted: "5 chillers", "five", "Found 5 chiller assets", "there are 5" — not a digit inside a name or a date.
    The counted nouns: the generic ones of `of` (sites; assets, equipment, units; sensors, points), the name part
    `name_contains`, the `kind` marker and the words in `noun`."""


class ListCheck(EntityQuery):
    """The answer names (at least `min_fraction` of) the entities the SkySpark lists."""

    min_fraction: float = Field(1.0, gt=0, le=1)


class MissingCheck(Spec):
    """The answer says that `name` does not exist. With `kind` (and `site`/`asset`) the checker also
    confirms against the SkySpark that it really is missing, so a task cannot silently go stale."""

    name: str = Field(..., min_length=1)
    kind: Literal["site", "asset", "sensor"] | None = None
    site: str | None = None
    asset: str | None = None
    must_name: bool = Field(True, description="the answer must mention the missing name")


class NotRecordedCheck(Spec):
    """The answer says the SkySpark does not hold `attribute` (manufacturer, model, rating, install date …),
    names it (or one of `words`), and claims no value for it. With `site`/`asset` the checker confirms the asset
    exists and carries none of `tags` (so the task cannot go stale)."""

    attribute: str = Field(..., min_length=2)
    words: Words = Field(default_factory=list)
    site: str | None = None
    asset: str | None = None
    tags: Words = Field(default_factory=list)
