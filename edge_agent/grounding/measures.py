"""What a record of the SkySpark is, in the field's words: the kinds an equip is, the measure a point holds, and the
measures a question asks for — read with the field's vocabulary (`fieldvocab`: Project Haystack 4 and Brick
definitions, Haystack's unit database, operators' everyday words).

- `equip_kinds(markers)`: the markers of an equip record that name a kind of equipment. Where the field's
  definitions know some of them (`pump` on a chilled-water pump), those are its kinds and the others qualify
  them (`chilled`, `water`); where they know none (a site's own marker, `coldRoom`), every marker is a kind.
- `point_measure(sensor)`: the quantity kind a point measures (its unit first, then its tags, then its name's
  words) and its function (sensor, setpoint, command).
- `asked(text)`: the quantity kinds the words of a question name ("how humid" → relative humidity, "electricity
  consumed" → energy), with the comparison a word implies ("hotter" → above).
- `fits(asked, measure)`: a point answers a question about that measure — an energy question is answered from an
  energy point or from a power point (its energy is computed, docs/analysis.md); a setpoint is never the measure
  itself.
- `comparable(a, b)`: two series may be subtracted, added or compared with each other (one quantity kind and one
  unit); a ratio may cross kinds (kW per ton).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from edge_agent import analysis
from edge_agent.grounding import fieldvocab

#: what an energy question may be answered from: an energy point, or a power point integrated over time
_ANSWERED_FROM = {"energy": ("energy", "power")}


class PointLike(Protocol):
    short: str
    unit: str | None
    tags: tuple[str, ...]


@dataclass(frozen=True)
class Measure:
    quantity: str | None  # "temperature", "power", "energy", … (None: the field's vocabulary cannot tell)
    function: str | None  # "sensor", "setpoint", "command" (None: unknown)
    unit: str | None
    # a dew point (Haystack `dewPoint`): a temperature that measures the air's moisture, so a question of humidity
    # ("damper than -35", "how humid") is answered from it too
    moisture: bool = False

    @property
    def setpoint(self) -> bool:
        return self.function == "setpoint"


@dataclass(frozen=True)
class Asked:
    quantity: str
    phrase: str
    direction: str | None = None  # the comparison the word implies ("hotter": above)


def equip_kinds(markers: Iterable[str]) -> list[str]:
    """The markers of one equip record that name its kinds (see the module's docstring)."""
    own = [m for m in markers if m not in fieldvocab.STRUCTURAL_TAGS]
    known = fieldvocab.known_markers()
    kinds = [m for m in own if m in known]
    # a marker the field's files do not define is the site's own name for a kind ("blower" beside "motor",
    # "fermenter" beside "tank"), unless the field defines it as a tag that qualifies (air, water, …)
    own_kinds = [m for m in own if m not in known and not fieldvocab.is_tag(m)]
    return kinds + own_kinds if kinds else own


def point_measure(sensor: PointLike) -> Measure:
    q = fieldvocab.quantity_of_point(sensor.tags, sensor.unit, sensor.short)
    if q is None:  # a unit written into the name ("kW_total", "Flow_m3h")
        q = next(
            (
                u
                for tok in re.split(r"[\s_\-]+", sensor.short)
                if len(tok) > 1
                for u in [fieldvocab.quantity_of_unit(tok)]
                if u is not None and u.name != "dimensionless"
            ),
            None,
        )
    return Measure(
        quantity=q.name if q is not None else None,
        function=fieldvocab.point_function(sensor.tags, sensor.short),
        unit=sensor.unit,
        moisture="dewPoint" in sensor.tags or bool(re.search(r"dew[\s_-]*point|\bdewpt\b", sensor.short, re.I)),
    )


def asked(text: str) -> list[Asked]:
    """The measures the words of `text` name, in order of first mention, each quantity once."""
    out: dict[str, Asked] = {}
    for word in fieldvocab.measure_words(text.casefold()):
        out.setdefault(word.quantity.name, Asked(word.quantity.name, word.phrase, word.direction))
    return list(out.values())


def fits(wanted: Iterable[str], measure: Measure) -> bool:
    """`measure` answers a question about any of the `wanted` quantity kinds (none wanted: anything fits; a point
    whose quantity the vocabulary cannot tell is not ruled out)."""
    wanted = list(wanted)
    if not wanted or measure.quantity is None:
        return True
    if measure.moisture and "relative humidity" in wanted:
        return True
    return any(measure.quantity in _ANSWERED_FROM.get(w, (w,)) for w in wanted)


def comparable(a: Measure, b: Measure) -> bool:
    """Two series of one quantity kind and one unit (unknown quantities: the same unit)."""
    if a.quantity is not None and b.quantity is not None and a.quantity != b.quantity:
        return False
    return (a.unit or "").strip() == (b.unit or "").strip()


def summable(measure: Measure) -> bool:
    """A sum of this measure's samples means something (energy, volume: yes; temperature, power, %: no)."""
    return measure.quantity is not None and fieldvocab.summable(measure.quantity)


def kind_names(marker: str) -> tuple[str, ...]:
    """Every way a question may write a kind (singular, plural, synonyms, abbreviations, the marker's own words)."""
    label = fieldvocab.kind_label(marker)
    return tuple(dict.fromkeys((*label.names(), " ".join(fieldvocab.marker_words(marker)), marker)))


def kind_label(marker: str, n: int = 1) -> str:
    """How an answer names a kind, singular or plural ("air handling unit", "computer room air conditioners")."""
    label = fieldvocab.kind_label(marker)
    return label.singular if n == 1 else label.plural


def counted_unit(unit: str | None) -> str:
    """The unit of what a rate counts, where that adds up ("t/h" → "t", "cfh" → "ft³"); '' otherwise (a power, a
    speed in km/h, no unit)."""
    rate = analysis.rate_unit(unit)
    quantity = fieldvocab.quantity_of_unit(rate[0]) if rate else None
    return rate[0] if rate and quantity is not None and quantity.summable else ""
