#!/usr/bin/env python3
"""Generate the field's vocabulary files under edge_agent/grounding/vocab/ from the field's published definitions.

Sources (the `vocab` extra in pyproject.toml pins them; the output depends on these exact versions):
- Project Haystack 4 defs (libs ph, phScience, phIoT, phIct) as shipped inside `rusty-haystack`
  (`DefNamespace.load_standard()`): equipment kinds (every def that is an `equip`, and the marker defs for
  equipment such as `pump`, `fan`, `vfd`, `heatPump`, `evse`), their `is` parents, docs and wikipedia titles;
  quantity defs (`temp`, `humidity`, `elec-power`, …) with their `prefUnit`; point functions (`sensor`, `sp`, `cmd`).
- Project Haystack's unit database (units.txt: units grouped under `-- quantity --` headers), as embedded in
  `rusty-haystack`'s native module; every unit its own `units.quantity()` API knows is checked against it.
- The Brick ontology 1.5 (`Brick.ttl` shipped by `brickschema`, read with rdflib): Equipment classes (labels,
  abbreviations from `owl:equivalentClass`, parents) and Point classes (words, QUDT quantity kind, function).

Writes equipment.json, units.json and point_tags.json (sorted keys, stable order, UTF-8, one trailing newline);
running it again with the same package versions reproduces them byte for byte (tests/test_fieldvocab.py checks).

    python scripts/generate_vocabulary.py            # write the files
    python scripts/generate_vocabulary.py --check    # exit 1 if the committed files differ from a fresh run
"""

from __future__ import annotations

import argparse
import importlib.metadata as md
import importlib.resources as ir
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from edge_agent.grounding.fieldvocab import marker_words, plural  # noqa: E402  (after the sys.path line above)

OUT = ROOT / "edge_agent" / "grounding" / "vocab"
BRICK_VERSION = "1.5"

#: Quantities whose values are amounts that add up over time (an interval's energy, volume, mass, cost, data);
#: everything else (temperature, power, flow, pressure, %, …) is a level or a rate and does not.
SUMMABLE = {"energy", "apparent energy", "reactive energy", "volume", "mass", "currency", "bytes"}

#: Naming glue where a Haystack quantity def's own words are not a readable quantity name.
DEF_QUANTITY_NAMES = {
    "humidity": "relative humidity",
    "pf": "power factor",
    "elec-current": "electric current",
    "elec-volt": "electric potential",
    "volt-magnitude": "electric potential",
}

#: QUDT quantity kinds (Brick's point classes) whose words are not a unit database quantity name.
QUDT_NAMES = {
    "VolumeFlowRate": "volumetric flow",
    "StaticPressure": "pressure",
    "DynamicPressure": "pressure",
    "GaugePressure": "pressure",
    "SoundPressure": "pressure",
    "PressureRatio": "relative humidity",  # Brick 1.5 files only its humidity classes under it (vapour pressure ratio)
    "DimensionlessRatio": "dimensionless",
    "Transmittance": "dimensionless",
    "RelativeHumidity": "relative humidity",
    "DewPointTemperature": "temperature",
    "ElectricPower": "power",
    "ActivePower": "power",
    "ElectricEnergy": "energy",
    "ThermalEnergy": "energy",
    "Voltage": "electric potential",
    "Resistance": "electric resistance",
    "Conductivity": "electrical conductivity",
    "Distance": "length",
    "LiquidLevel": "length",
    "MassFlowRate": "mass flow",
    "AbsoluteHumidity": "dimensionless",
    "SpecificHumidity": "dimensionless",
    "PowerFactor": "power factor",
    "Thrust": "force",
    "Capacity": "volume",
    "DataRate": "bytes",
    "InformationEntropy": "bytes",
    "Angle": "dimensionless",
    "Torque": "energy",
}

_ABBREV = re.compile(r"^[A-Z][A-Z0-9]{1,7}$")


def dump(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def camel(words: list[str] | tuple[str, ...]) -> str:
    ws = [w.lower() for w in words if w]
    return ws[0] + "".join(w[:1].upper() + w[1:] for w in ws[1:]) if ws else ""


def def_marker(symbol: str) -> str:
    """A Haystack 4 def symbol as the marker a SkySpark record carries: `elec-meter` → `elecMeter`."""
    parts = symbol.split("-")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def initials(label: str) -> str:
    return "".join(w[0] for w in re.split(r"[\s\-]+", label) if w).lower()


def short_labels(marker: str, doc: str, wikipedia: str | None, shared_wiki: set[str]) -> list[str]:
    """Names a def's doc and wikipedia link give: "Air Handling Unit: An enclosure…" → "Air Handling Unit";
    "Uninterruptible power supply" (a doc that is a name) → itself; …/wiki/Cooling_tower → "Cooling tower".
    A wikipedia title is taken only where it names this kind alone: not shared with another def, and either the
    doc gave no name or the title spells the marker (its words or initials)."""
    out: list[str] = []
    first = doc.strip().split("\n")[0]
    m = re.match(r"^([A-Za-z][A-Za-z \-]{2,60}):\s", first)
    if m:
        out.append(m.group(1).strip())
    sentence = re.split(r"[.;(]", first)[0].strip()
    if (
        sentence
        and len(sentence.split()) <= 5
        and not m
        and "`" not in sentence
        and not re.search(r"\b(or|and|point|used|to|which|that|for|with|without|of|carries|conveys)\b", sentence)
    ):
        out.append(sentence)
    if wikipedia and str(wikipedia) not in shared_wiki:
        title = str(wikipedia).rsplit("/", 1)[-1].replace("_", " ")
        spells = camel(marker_words(title)) == marker or initials(title) == marker.lower()
        if "#" not in title and "(" not in title and len(title.split()) <= 5 and (spells or not out):
            out.append(title)
    return out


# ------------------------------------------------------------------------------------------------ Haystack
def haystack_namespace():
    import rusty_haystack as rh

    return rh, rh.DefNamespace.load_standard()


def units_database(rh) -> list[tuple[str, list[str]]]:
    """Haystack's units.txt as embedded in rusty-haystack's native module: [(quantity, [unit lines])]."""
    spec = rh.rusty_haystack.__file__
    data = Path(spec).read_bytes()
    start = data.find(b"-- dimensionless --")
    if start < 0:
        raise SystemExit("rusty-haystack no longer embeds Haystack's units database; update the generator")
    text = data[start : start + 200_000].decode("utf-8", "replace")
    groups: list[tuple[str, list[str]]] = []
    header = re.compile(r"^-- ([a-z][a-z ]*) --$")
    unit_line = re.compile(r"^[^\s,]+(,[^\s,]+)*$")
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        h = header.match(line)
        if h:
            groups.append((h.group(1), []))
        elif unit_line.match(line) and groups:
            groups[-1][1].append(line)
        else:
            break
    return groups


def build_units(rh, ns) -> tuple[dict, dict[str, str]]:
    groups = units_database(rh)
    unit_quantity: dict[str, str] = {}
    entries: list[dict] = []
    for qname, lines in groups:
        for line in lines:
            name, *symbols = line.split(",")
            symbols = symbols or [name]
            for s in [name, *symbols]:
                api = rh.units.quantity(s)
                if api is not None and api != qname:
                    raise SystemExit(
                        f"units database disagrees with rusty-haystack's API on {s!r}: {qname!r} vs {api!r}"
                    )
            entries.append({"name": name, "symbols": symbols, "quantity": qname})
            for s in [name, *symbols]:
                unit_quantity.setdefault(s, qname)
    # refine dimensionless units that one family of Haystack quantity defs prefers (%RH → relative humidity)
    qdefs = [d for d in ns.defs() if ns.is_a(d.symbol, "quantity") and d.symbol != "quantity"]
    prefers: dict[str, set[str]] = {}
    for d in qdefs:
        for u in list(d.tags.get("prefUnit") or []):
            if unit_quantity.get(str(u)) == "dimensionless":
                prefers.setdefault(str(u), set()).add(family(ns, d.symbol))
    refined = {u: quantity_name_of_def(fams.pop()) for u, fams in prefers.items() if len(fams) == 1}
    for e in entries:
        hit = {refined[s] for s in [e["name"], *e["symbols"]] if s in refined}
        if len(hit) == 1 and e["quantity"] == "dimensionless":
            e["quantity"] = hit.pop()
    # spellings a SkySpark or a person writes without the special characters: m3/h, inH2O, degC, uS
    taken = {s for e in entries for s in e["symbols"]} | {e["name"] for e in entries}
    for e in entries:
        extra: list[str] = []
        for s in e["symbols"]:
            for alt in ascii_spellings(s):
                if alt not in taken and alt not in extra:
                    extra.append(alt)
        e["symbols"] = [*e["symbols"], *extra]
        taken.update(extra)
    for e in entries:
        e["symbols"] = [*e["symbols"], *([e["name"]] if e["name"] not in e["symbols"] else [])]
    # each unit as its quantity's first unit: value × scale + offset (°F → K, psi → Pa), from rusty-haystack's
    # converter, so that a limit said in one unit is compared with a series in another of the same quantity
    first: dict[str, list[str]] = {}
    for qname, lines in groups:
        for line in lines:
            first.setdefault(qname, line.split(","))

    def convert(value: float, spellings: list[str], refs: list[str]) -> float | None:
        for a in spellings:
            for b in refs:
                try:
                    return float(rh.units.convert(value, a, b))
                except Exception:  # noqa: BLE001, S112 (a spelling the converter does not take: the next one)
                    continue
        return None

    for e in entries:
        refs = first.get(e["quantity"])
        if refs is None:
            continue
        spellings = [e["name"], *e["symbols"]]
        zero, one = convert(0.0, spellings, refs), convert(1.0, spellings, refs)
        if zero is not None and one is not None and one != zero:
            e["scale"], e["offset"] = round(one - zero, 12), round(zero, 12)
    quantities = sorted({e["quantity"] for e in entries} | set(DEF_QUANTITY_NAMES.values()) | set(QUDT_NAMES.values()))
    final_q = {s: e["quantity"] for e in entries for s in e["symbols"]}
    doc = {
        "source": source(),
        "quantities": {q: {"summable": q in SUMMABLE} for q in quantities},
        "units": sorted(entries, key=lambda e: (e["quantity"], e["name"])),
    }
    return doc, final_q


def ascii_spellings(symbol: str) -> list[str]:
    sup = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹₀₁₂₃₄₅₆₇₈₉µ", "01234567890123456789u")
    out = []
    a = symbol.translate(sup)
    if a != symbol:
        out.append(a)
    if "°" in a:
        out.append(a.replace("°", "deg"))
        out.append(a.replace("°", ""))  # "C", "F": only where no other unit spells so (checked by the caller)
    if "Δ" in a:
        out.append(a.replace("Δ", "delta").replace("°", "deg"))
    return [o for o in out if o and o != symbol]


def family(ns, symbol: str) -> str:
    """The quantity def right below `quantity` that `symbol` descends from (co2-concentration → concentration)."""
    d = ns.get_def(symbol)
    while True:
        parents = [p for p in d.is_ if ns.is_a(p, "quantity")] if d else []
        if not parents or parents[0] == "quantity":
            return d.symbol
        d = ns.get_def(parents[0])


def quantity_name_of_def(symbol: str) -> str:
    return DEF_QUANTITY_NAMES.get(symbol, " ".join(marker_words(symbol)))


def build_point_tags(ns, unit_quantity: dict[str, str], brick) -> dict:
    known = set(unit_quantity.values())
    qdefs = sorted(
        (d for d in ns.defs() if ns.is_a(d.symbol, "quantity") and d.symbol != "quantity"), key=lambda d: d.symbol
    )
    by_symbol = {d.symbol: d for d in qdefs}

    def q_of(symbol: str, seen: tuple = ()) -> str | None:
        if symbol in DEF_QUANTITY_NAMES:
            return DEF_QUANTITY_NAMES[symbol]
        d = by_symbol.get(symbol)
        if d is None or symbol in seen:
            return None
        for u in list(d.tags.get("prefUnit") or []):
            if str(u) in unit_quantity:
                q = unit_quantity[str(u)]
                if q != "dimensionless":
                    return q
        words = " ".join(marker_words(symbol))
        if words in known:
            return words
        for p in d.is_:
            q = q_of(p, (*seen, symbol))
            if q:
                return q
        prefs = [str(u) for u in list(d.tags.get("prefUnit") or [])]
        return "dimensionless" if prefs and all(unit_quantity.get(u) == "dimensionless" for u in prefs) else None

    quantities = []
    for d in qdefs:
        q = q_of(d.symbol)
        if q:
            quantities.append({"def": d.symbol, "tags": sorted(set(d.symbol.split("-"))), "quantity": q})
    functions = {}
    for d in ns.defs():
        if d.symbol != "pointFunction" and ns.is_a(d.symbol, "pointFunction"):
            functions[d.symbol] = {"sensor": "sensor", "sp": "setpoint", "cmd": "command"}.get(d.symbol, d.symbol)
    return {"source": source(), "quantities": quantities, "functions": functions, "brick_points": brick["points"]}


def build_equipment(ns, brick) -> dict:
    equip_defs = [d for d in ns.defs() if ns.is_a(d.symbol, "equip")]
    equip_symbols = {d.symbol for d in equip_defs}
    marker_defs = {
        d.symbol: d for d in ns.defs() if "-" not in d.symbol and d.kind is not None and str(d.kind).endswith("Marker")
    }
    kinds: dict[str, dict] = {}
    wiki_count: dict[str, int] = {}
    for d in ns.defs():
        w = d.tags.get("wikipedia")
        if w:
            wiki_count[str(w)] = wiki_count.get(str(w), 0) + 1
    shared_wiki = {w for w, n in wiki_count.items() if n > 1}

    def entry(marker: str) -> dict:
        return kinds.setdefault(
            marker,
            {
                "marker": marker,
                "labels": [],
                "abbreviations": [],
                "is": [],
                "markers": [],
                "haystack": None,
                "brick": [],
            },
        )

    for d in sorted(equip_defs, key=lambda d: d.symbol):
        m = def_marker(d.symbol)
        e = entry(m)
        e["haystack"] = d.symbol
        e["tags"] = d.symbol.split("-")
        e["is"] = [def_marker(p) for p in d.is_ if p in equip_symbols or p == "equip"]
        e["labels"] += short_labels(m if "-" in d.symbol else d.symbol, d.doc, d.tags.get("wikipedia"), shared_wiki)
    # marker defs that name equipment without being an `equip` subtype (pump, fan, vfd, heatPump, evse, …)
    brick_camels = {camel(marker_words(n)) for grp in brick["groups"] for n in grp["classes"]}
    for sym, d in sorted(marker_defs.items()):
        if sym in kinds or sym in {"equip"}:
            continue
        doc = d.doc.split("\n")[0]
        first = re.split(r"[.;]", doc)[0].strip()
        names_equipment = (
            re.match(r"^[A-Z]\w* equipment or control point", first)  # pump, fan, valve
            or re.match(r"^Equipment that\b", first)  # heatPump, dispenser
            or first.endswith(" Equipment")
        )  # evse: Electric Vehicle Supply Equipment
        if names_equipment or sym in brick_camels:
            e = entry(sym)
            e["haystack"] = sym
            e["tags"] = [sym]
            e["is"] = ["equip"]
            e["labels"] += short_labels(m if "-" in d.symbol else d.symbol, d.doc, d.tags.get("wikipedia"), shared_wiki)
    # Brick: equivalence groups (AHU ≡ Air_Handling_Unit) merged into the Haystack kind they name
    by_initials: dict[str, str] = {}
    for m, e in kinds.items():
        for lab in e["labels"]:
            if initials(lab) == m.lower() and len(m) >= 2:
                by_initials.setdefault(m, m)
    brick_to_marker: dict[str, str] = {}
    for group in brick["groups"]:
        names = group["classes"]
        abbrevs = [n for n in names if _ABBREV.match(n)]
        longs = [n for n in names if not _ABBREV.match(n)]
        target = None
        for a in abbrevs:
            if a.lower() in kinds:
                target = a.lower()
        for n in longs:
            c = camel(marker_words(n))
            if target is None and c in kinds:
                target = c
            if target is None and initials(" ".join(marker_words(n))) in by_initials:
                target = initials(" ".join(marker_words(n)))
        if target is None:
            target = abbrevs[0].lower() if abbrevs else camel(marker_words(longs[0]))
        e = entry(target)
        for n in names:
            brick_to_marker[n] = target
            e["brick"].append(n)
            if _ABBREV.match(n):
                e["abbreviations"].append(n)
            else:
                e["labels"].append(group["labels"].get(n) or " ".join(marker_words(n)))
            alt = camel(marker_words(n))
            if alt != target:
                e["markers"].append(alt)
    for group in brick["groups"]:
        for n in group["classes"]:
            m = brick_to_marker[n]
            for p in group["parents"].get(n, []):
                pm = brick_to_marker.get(p, camel(marker_words(p)) if p != "Equipment" else "equip")
                if pm != m and pm not in kinds[m]["is"]:
                    kinds[m]["is"].append(pm)
    # abbreviations of Haystack markers that are initials of their own label (ahu, ups, vfd, evse, crac, doas)
    for m, e in kinds.items():
        if m.islower() and 2 <= len(m) <= 5 and any(initials(lab) == m for lab in e["labels"]):
            e["abbreviations"].append(m.upper())
    out = []
    for m in sorted(kinds):
        e = kinds[m]
        own = " ".join(marker_words(m))
        labels = []
        for lab in e["labels"]:
            n = " ".join(w.lower() if not _ABBREV.match(w) else w for w in re.split(r"[\s_]+", lab.strip()))
            if n and n not in labels:
                labels.append(n)
        order = {lab: i for i, lab in enumerate(labels)}
        labels.sort(key=lambda lab: (lab.lower() == own, order[lab]))  # an expansion before the marker's words
        abbrevs = sorted(set(e["abbreviations"]))
        item = {
            "marker": m,
            "labels": labels,
            "plurals": [plural(x) for x in labels],
            "abbreviations": abbrevs,
            "is": e["is"] or ["equip"],
        }
        if m == "equip":
            item["is"] = []
        if e["haystack"]:
            item["haystack"] = e["haystack"]
            item["tags"] = e.get("tags", [m])
        if e["brick"]:
            item["brick"] = sorted(set(e["brick"]))
        alts = sorted(set(e["markers"]) - {m})
        if alts:
            item["markers"] = alts
        out.append(item)
    # Haystack tags that are defined but are not equipment kinds (substances, qualifiers, quantities, entity
    # types, values): a marker among these on an equip record qualifies its kind (`elec meter`), it is not one
    kind_markers = {item["marker"] for item in out} | {a for item in out for a in item.get("markers", [])}
    others = sorted(
        {d.symbol for d in ns.defs() if "-" not in d.symbol and ":" not in d.symbol} - kind_markers - {"equip"}
    )
    return {"source": source(), "kinds": out, "not_kinds": others}


# ------------------------------------------------------------------------------------------------ Brick
def brick_data(unit_names: set[str]) -> dict:
    import rdflib
    from rdflib.namespace import OWL, RDFS

    g = rdflib.Graph()
    g.parse(str(ir.files("brickschema") / "ontologies" / BRICK_VERSION / "Brick.ttl"), format="turtle")
    B = rdflib.Namespace("https://brickschema.org/schema/Brick#")
    QK = "http://qudt.org/vocab/quantitykind/"
    deprecated = {s for s in g.subjects(OWL.deprecated, rdflib.Literal(True))}

    def local(u) -> str:
        return str(u).split("#")[-1]

    def subclasses(root) -> list:
        q = g.query("SELECT DISTINCT ?c WHERE { ?c rdfs:subClassOf+ ?r }", initBindings={"r": root})
        return sorted({r.c for r in q if isinstance(r.c, rdflib.URIRef) and r.c not in deprecated}, key=str)

    def parents(c) -> list[str]:
        return sorted(
            local(p)
            for p in g.objects(c, RDFS.subClassOf)
            if isinstance(p, rdflib.URIRef) and str(p).startswith(str(B))
        )

    # equipment, grouped by owl:equivalentClass
    equipment = subclasses(B.Equipment)
    eq_set = set(equipment)
    group_of: dict = {}
    groups = []
    for c in equipment:
        if c in group_of:
            continue
        members, todo = set(), [c]
        while todo:
            x = todo.pop()
            if x in members or x not in eq_set:
                continue
            members.add(x)
            todo += list(g.objects(x, OWL.equivalentClass)) + list(g.subjects(OWL.equivalentClass, x))
        names = sorted(local(m) for m in members)
        grp = {
            "classes": names,
            "labels": {local(m): str(g.value(m, RDFS.label) or "") for m in members},
            "parents": {local(m): parents(m) for m in members},
        }
        for m in members:
            group_of[m] = grp
        groups.append(grp)

    # points (no alarms): words, function, quantity
    functions = {
        "Sensor": "sensor",
        "Setpoint": "setpoint",
        "Command": "command",
        "Status": "status",
        "Parameter": "parameter",
    }
    fn_of = {}
    for root, fn in functions.items():
        for c in subclasses(B[root]):
            fn_of.setdefault(c, fn)
    alarms = set(subclasses(B.Alarm))

    def qk(c, seen=()) -> str | None:
        for k in g.objects(c, rdflib.URIRef("http://qudt.org/schema/qudt/hasQuantityKind")):
            name = str(k).replace(QK, "")
            q = QUDT_NAMES.get(name, " ".join(marker_words(name)))
            return q if q in unit_names else None
        for p in g.objects(c, RDFS.subClassOf):
            if isinstance(p, rdflib.URIRef) and p not in seen and str(p).startswith(str(B)):
                q = qk(p, (*seen, c))
                if q:
                    return q
        return None

    points = []
    for c in subclasses(B.Point):
        if c in alarms or c not in fn_of:
            continue
        fn = fn_of[c]
        label = str(g.value(c, RDFS.label) or local(c).replace("_", " "))
        words = [w for w in re.split(r"[\s_]+", label.lower()) if w]
        fn_word = {
            "sensor": "sensor",
            "setpoint": "setpoint",
            "command": "command",
            "status": "status",
            "parameter": "parameter",
        }[fn]
        if words and words[-1] == fn_word:
            words = words[:-1]
        if not words:
            continue
        item = {"class": local(c), "words": " ".join(words), "function": fn}
        q = qk(c)
        if q:
            item["quantity"] = q
        points.append(item)
    return {"groups": groups, "points": points}


def source() -> dict:
    return {
        "haystack": f"rusty-haystack {md.version('rusty-haystack')} (Project Haystack 4 defs and units)",
        "brick": f"brickschema {md.version('brickschema')} (Brick {BRICK_VERSION})",
        "generator": "scripts/generate_vocabulary.py",
    }


def build() -> dict[str, str]:
    """Every generated file's text, by file name."""
    rh, ns = haystack_namespace()
    units, unit_quantity = build_units(rh, ns)
    brick = brick_data(set(units["quantities"]))
    return {
        "equipment.json": dump(build_equipment(ns, brick)),
        "units.json": dump(units),
        "point_tags.json": dump(build_point_tags(ns, unit_quantity, brick)),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files; write nothing")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    files = build()
    if args.check:
        stale = [
            n
            for n, t in files.items()
            if not (args.out / n).exists() or (args.out / n).read_text(encoding="utf-8") != t
        ]
        for n in stale:
            print(f"{n}: differs from a fresh generation", file=sys.stderr)
        return 1 if stale else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (args.out / name).write_text(text, encoding="utf-8")
        print(f"wrote {args.out / name} ({len(text.encode()):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
