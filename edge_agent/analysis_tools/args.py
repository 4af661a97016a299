"""The analysis tools' argument models, and the marks that let the question itself pin an argument.

Arguments are constrained like the IoT tools' to the catalog and the worked-out period and, for the statistic,
order, operation, direction and limit, to what the question says where it says it (`x-question` marks, see
`edge_agent.grounding.scope`). Required arguments come first, optional ones last: the step grammar writes the
optional ones at the end, and the fields' order is the order the model writes them in.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field
from pydantic.json_schema import JsonDict

from edge_agent.toolkit import ASSET_REF, FINAL_REF, SENSOR_REF, SITE_REF, START_REF, TYPE_REF, ToolArgs

#: arguments whose value the question itself may state (pinned by the scope when it does)
STATISTIC: JsonDict = {"x-question": "statistic"}
ORDER: JsonDict = {"x-question": "order"}
OPERATION: JsonDict = {"x-question": "op"}
DIRECTION: JsonDict = {"x-question": "direction"}
LIMIT: JsonDict = {"x-question": "limit"}
#: the unit the question says its limit in ("above 150 psi"): the tool compares in the series' unit
LIMIT_UNIT: JsonDict = {"x-question": "limit_unit", "x-hidden": True}
#: what an excursion's answer leads with (whether it happened, or for how long): set by code from the question's form,
#: never written by the model (`x-hidden`: left out of the step's grammar, filled in before the call runs)
REPORT: JsonDict = {"x-question": "report", "x-hidden": True}
OTHER_START: JsonDict = {"x-question": "other_start"}  # the second period the question compares (`grounding.periods`)
OTHER_FINAL: JsonDict = {"x-question": "other_final"}


def _start() -> Any:
    return Field(..., description="ISO 8601 start of the period", json_schema_extra=START_REF)


def _final() -> Any:
    return Field(..., description="ISO 8601 end of the period (exclusive)", json_schema_extra=FINAL_REF)


def _by() -> Any:
    return Field(..., description="the aggregate compared", json_schema_extra=STATISTIC)


def _order() -> Any:
    return Field(..., description="which end wins", json_schema_extra=ORDER)


class RankArgs(ToolArgs):
    site_name: str = Field(..., description="a site name, e.g. POKMAIN", json_schema_extra=SITE_REF)
    sensor_name: str = Field(..., description="the sensor to compare, e.g. Tonnage", json_schema_extra=SENSOR_REF)
    by: Literal["max", "min", "mean", "median", "energy"] = _by()
    order: Literal["highest", "lowest"] = _order()
    start: str = _start()
    final: str = _final()
    asset_names: list[str] | None = Field(
        None,
        json_schema_extra={**ASSET_REF, "x-role": "optional-list"},
        description="the assets to compare (omit: every asset with the sensor)",
    )
    asset_type: str | None = Field(
        None, description="compare every asset of this kind (an equip marker)", json_schema_extra=TYPE_REF
    )


class DeriveArgs(ToolArgs):
    site_name: str = Field(..., description="a site name", json_schema_extra=SITE_REF)
    asset_name: str = Field(..., description="the (first) asset", json_schema_extra={**ASSET_REF, "x-role": "first"})
    sensor_name: str = Field(
        ..., description="the first series' sensor", json_schema_extra={**SENSOR_REF, "x-role": "first"}
    )
    other_asset: str = Field(
        ...,
        description="the second series' asset (the same asset for two of its sensors)",
        json_schema_extra={**ASSET_REF, "x-role": "second"},
    )
    other_sensor: str = Field(
        ..., description="the second series' sensor", json_schema_extra={**SENSOR_REF, "x-role": "second"}
    )
    op: Literal["difference", "sum", "ratio"] = Field(..., json_schema_extra=OPERATION)
    start: str = _start()
    final: str = _final()


class ExcursionArgs(ToolArgs):
    site_name: str = Field(..., description="a site name", json_schema_extra=SITE_REF)
    asset_name: str = Field(..., description="the asset", json_schema_extra=ASSET_REF)
    sensor_name: str = Field(
        ..., description="the series compared", json_schema_extra={**SENSOR_REF, "x-role": "measured"}
    )
    direction: Literal["above", "below"] = Field(..., json_schema_extra=DIRECTION)
    start: str = _start()
    final: str = _final()
    limit: float | None = Field(None, description="a fixed limit", json_schema_extra=LIMIT)
    limit_unit: str | None = Field(
        None, description="the unit the limit is said in (compared in the series' unit)", json_schema_extra=LIMIT_UNIT
    )
    limit_sensor: str | None = Field(
        None,
        description="or a sensor of the asset to compare with (a setpoint)",
        json_schema_extra={**SENSOR_REF, "x-role": "setpoint"},
    )
    report: Literal["whether", "how_long"] = Field(
        "whether", description="what the answer leads with: whether it happened, or how long", json_schema_extra=REPORT
    )


class PeriodsArgs(ToolArgs):
    site_name: str = Field(..., description="a site name", json_schema_extra=SITE_REF)
    asset_name: str = Field(..., description="the asset", json_schema_extra=ASSET_REF)
    sensor_name: str = Field(..., description="the sensor compared", json_schema_extra=SENSOR_REF)
    by: Literal["max", "min", "mean", "median", "energy"] = _by()
    order: Literal["highest", "lowest"] = _order()
    start: str = _start()
    final: str = _final()
    other_start: str = Field(..., description="ISO 8601 start of the other period", json_schema_extra=OTHER_START)
    other_final: str = Field(
        ..., description="ISO 8601 end of the other period (exclusive)", json_schema_extra=OTHER_FINAL
    )
