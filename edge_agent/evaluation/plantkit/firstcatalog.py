"""The first generation's checks of the catalog and of refusals (sets 3-6; a part of `FirstTruth`, first.py): exists,
count, lists (with each site's zone and each asset's markers where `lists_detail`), missing, not recorded, refuses, in
those sets' own words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from edge_agent.evaluation.plantkit.reading import norm
from edge_agent.evaluation.plantkit.truthbase import Parts


class FirstCatalogChecks(Parts):
    """FirstTruth's catalog checks: a part of `FirstTruth`, on its tables and plant."""

    if TYPE_CHECKING:

        def intended_yes(self, tid: str, ans: bool) -> None: ...

    EXISTS_KIND = "- exists {kind} at {site}: **{yn}** ({have}; elsewhere: {elsewhere})"
    EXISTS_ASSET = "- exists asset {asset} at {site}: **{yn}**"

    def exists_answer(self, tid: str, ans: bool) -> None:
        self.intended_yes(tid, ans)

    def chk_count(self, tid, c):
        if self.COUNT_WORD_NAMES and c["of"] == "assets":
            site = self.site_of(c)
            named = [e.dis for e in site.equips.values() if c.get("kind", "").lower() in e.dis.lower()]
            self.out.append(f"  (names that contain the marker's word: {', '.join(named) or 'none'})")
        if c["of"] == "assets":
            n = [e.dis for e in self.site_of(c).equips.values() if c.get("kind") is None or c["kind"] in e.markers]
        else:
            n = list(self.P.equip(c["site"], c["asset"]).points)
        self.out.append(f"- count: **{len(n)}** ({', '.join(n)})")
        if self.EXPECTED.get(tid) not in (None, len(n)):
            self.bad(tid, f"count {len(n)} is not the intended {self.EXPECTED[tid]}")

    def chk_lists(self, tid, c):
        if self.LISTS_DETAIL:
            self.lists_detail(tid, c)
            return
        if c["of"] == "sites":
            n = [s.dis for s in self.P.sites.values()]
        elif c["of"] == "assets":
            n = self.assets_named(tid, c)
        else:
            e = self.P.equip(c["site"], c["asset"])
            n = [f"{p.nav} ({p.kind}{', ' + p.unit if p.unit else ''})" for p in e.points.values()]
        self.out.append(f"- lists: **{', '.join(n)}**")
        want = self.EXPECTED.get(tid)
        if want is not None and [x.split(" (")[0] for x in n] != want:
            self.bad(tid, f"listed {n}, not the intended {want}")

    def lists_detail(self, tid, c):
        """Lists that say each site's zone and each asset's markers (LISTS_DETAIL)."""
        if c["of"] == "sites":
            names = [x.dis for x in self.P.sites.values()]
            n = [f"{x.dis} ({x.tz.key})" for x in self.P.sites.values()]
        elif c["of"] == "assets":
            site = self.site_of(c)
            names = [e.dis for e in site.equips.values() if c.get("name_contains", "").lower() in e.dis.lower()]
            n = [f"{e.dis} ({', '.join(sorted(e.markers))})" for e in site.equips.values() if e.dis in names]
        else:
            e = self.P.equip(c["site"], c["asset"])
            names = [p.nav for p in e.points.values()]
            n = [f"{p.nav} ({p.kind}{', ' + p.unit if p.unit else ''})" for p in e.points.values()]
        self.out.append(f"- lists: **{', '.join(n)}**")
        if self.EXPECTED.get(tid) not in (None, names):
            self.bad(tid, f"the listed names {names} are not the intended {self.EXPECTED[tid]}")

    def chk_missing(self, tid, c):
        k = c["kind"]
        if k == "site":
            missing = self.P.site(c["name"]) is None and not any(
                norm(c["name"]) in norm(s.dis) for s in self.P.sites.values()
            )
            near = [s.dis for s in self.P.sites.values()]
        elif k == "asset":
            missing = self.P.equip(c["site"], c["name"]) is None
            near = list(self.site_of(c).equips)
            elsewhere = [t.dis for t in self.P.sites.values() if self.P.equip(t.dis, c["name"]) is not None]
            if elsewhere:
                self.bad(tid, f"{c['name']} exists at {elsewhere}")
        else:
            e = self.P.equip(c["site"], c["asset"])
            missing = all(norm(p.nav) != norm(c["name"]) for p in e.points.values())
            near = list(e.points)
        self.out.append(
            f"- missing {k} '{c['name']}': **{'missing' if missing else 'EXISTS'}** (what there is: {', '.join(near)})"
        )
        if not missing:
            self.bad(tid, "the 'missing' thing exists")

    def chk_not_recorded(self, tid, c):
        e = self.P.equip(c["site"], c["asset"])
        if e is None:
            self.bad(tid, f"{c['asset']} does not exist")
            return
        attr_tags = set(c.get("tags", [])) | {"manufacturer", "model", "serial", "installDate", "rating"}
        have = attr_tags & set(e.record)
        self.out.append(
            f"- not recorded: {c['attribute']} of {e.dis}: the record holds only "
            f"{', '.join(sorted(e.record))} → **not recorded**"
        )
        if have:
            self.bad(tid, f"record holds {have}")

    REFUSES = {
        "cannot": "- refuses: **says it cannot; no data read; no action claimed**",
        "forecast": "- refuses: **reads recorded data only, no forecast; states no figure; no data read**",
        "operation": "- refuses: **says it cannot operate equipment; no action claimed{names}{data}**",
        "may read": " (data part may be read and is checked beside)",
        "reads none": "; no data read",
    }
