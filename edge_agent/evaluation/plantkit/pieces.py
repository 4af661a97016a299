"""The pieces a plant file's expressions call: the generator's signal pieces (plantkit/generator.py) bound to the
plant being drawn and to the current site, and the few numpy and math functions a recipe needs, each under a plain
name (functions.py: those without a plant). docs/plants.md lists them with what each gives.

A piece that takes a day takes a `datetime.date` or the text 'YYYY-MM-DD'. The random pieces (`noise`, `clipn`,
`per_day`, `day_noise`, `uniform`, `draw_one`) each take their numbers from the plant's one seeded generator when
they are called: the order of the calls is part of the plant.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from edge_agent.evaluation.plantkit import generator as kit
from edge_agent.evaluation.plantkit.functions import NUMPY
from edge_agent.evaluation.plantkit.generator import Plant, Site

#: names every expression can read besides its plant's own and its site's
CONSTANTS: dict[str, Any] = {"pi": math.pi, "inf": math.inf, "nan": math.nan}
#: the site's arrays and numbers an expression reads by name (`hour` is site.hour, ...)
SITE_NAMES = ("hour", "uhour", "wday", "day_i", "secs", "n")


def day_of(d: Any) -> dt.date:
    """A date from a date or 'YYYY-MM-DD'."""
    if isinstance(d, dt.datetime):
        return d.date()
    if isinstance(d, dt.date):
        return d
    if isinstance(d, str):
        return dt.date.fromisoformat(d)
    raise TypeError(f"not a day: {d!r} (a date or 'YYYY-MM-DD')")


class Pieces:
    """The vocabulary, bound to one plant; `site` is set by the plant file's `site:` statements."""

    def __init__(self, plant: Plant):
        self.plant = plant
        self.site: Site | None = None

    @property
    def s(self) -> Site:
        if self.site is None:
            raise ValueError("no site yet: a `site:` statement must come before a piece that needs one")
        return self.site

    def table(self) -> dict[str, Callable[..., Any]]:
        """name -> callable, for the expression evaluator."""
        out: dict[str, Callable[..., Any]] = {}
        for name in PIECES:
            out[name] = getattr(self, "p_" + name)
        for name, fn in NUMPY.items():
            out[name] = fn
        return out

    # ----- random (each call draws) ------------------------------------------------------------------------------
    def p_noise(self, sd: float) -> np.ndarray:
        """Normal noise, one draw per sample."""
        return self.plant.noise(self.s, sd)

    def p_clipn(self, sd: float, lim: float) -> np.ndarray:
        """Normal noise clipped to +-lim."""
        return self.plant.clipn(self.s, sd, lim)

    def p_per_day(self, sd: float) -> np.ndarray:
        """One normal offset per local day, spread over the day's samples."""
        return self.plant.per_day(self.s, sd)

    def p_day_noise(self, sd: float) -> np.ndarray:
        """One normal draw per day of the plant, as an array of days (spread it with by_day)."""
        return self.plant.rng.normal(0.0, sd, self.plant.ndays)

    def p_day_uniform(self) -> np.ndarray:
        """A uniform draw in [0, 1) per day of the plant, as an array of days (spread it with by_day)."""
        return self.plant.rng.random(self.plant.ndays)

    def p_uniform_one(self) -> float:
        """One uniform draw in [0, 1) (in a `recur` step: one per sample that evaluates it)."""
        return float(self.plant.rng.random())

    def p_integers_one(self, lo: int, hi: int) -> int:
        """One integer drawn from lo .. hi - 1 (in a `recur` step)."""
        return int(self.plant.rng.integers(lo, hi))

    def p_gamma(self, shape: float, scale: float) -> np.ndarray:
        """A gamma draw per sample (rain in mm)."""
        return self.plant.rng.gamma(shape, scale, self.s.n)

    def p_uniform(self) -> np.ndarray:
        """A uniform draw in [0, 1) per sample."""
        return self.plant.rng.random(self.s.n)

    def p_wander(self, sd: float, keep: float = 0.97) -> np.ndarray:
        """A slowly wandering AR(1) series from 0 of stationary standard deviation sd: x[i] = keep x[i-1] + a draw
        (set 2)."""
        e = self.plant.rng.normal(0, sd * np.sqrt(1 - keep**2), self.s.n)
        x = np.zeros(self.s.n)
        for i in range(1, self.s.n):
            x[i] = keep * x[i - 1] + e[i]
        return x

    def p_draw_one(self, sd: float, mean: float = 0.0) -> float:
        """One normal draw (in a `recur` step: one per sample that evaluates it)."""
        return self.plant.rng.normal(mean, sd)

    # ----- the site's masks and times ----------------------------------------------------------------------------
    def p_day(self, d: Any) -> np.ndarray:
        """The samples of that local day."""
        return self.s.day(day_of(d))

    def p_days(self, ds: Sequence[Any]) -> np.ndarray:
        """The samples of any of those local days."""
        return self.s.days([day_of(d) for d in ds])

    def p_between(self, d0: Any, d1: Any) -> np.ndarray:
        """The samples of the local days d0 <= day < d1."""
        return self.s.between(day_of(d0), day_of(d1))

    def p_through(self, d0: Any, d1: Any) -> np.ndarray:
        """The samples of the local days d0 through d1, both included."""
        a, b = day_of(d0), day_of(d1)
        return np.array([a <= x <= b for x in self.s.date])

    def p_from_day(self, d: Any) -> np.ndarray:
        """The samples of that local day and every later one."""
        d0 = day_of(d)
        return np.array([x >= d0 for x in self.s.date])

    def p_nights(self, ds: Sequence[Any]) -> np.ndarray:
        """The samples of the nights that begin on those days: from noon of the day to noon of the next."""
        want = {day_of(d) for d in ds}
        return np.array(
            [(d if h >= 12.0 else d - dt.timedelta(days=1)) in want for d, h in zip(self.s.date, self.s.hour)]
        )

    def p_from_night(self, d: Any) -> np.ndarray:
        """The samples of the night that begins on that day (at noon) and of every later one."""
        d0 = day_of(d)
        return np.array(
            [(d if h >= 12.0 else d - dt.timedelta(days=1)) >= d0 for d, h in zip(self.s.date, self.s.hour)]
        )

    def p_mask(self, d: Any, h0: float, h1: float) -> np.ndarray:
        """The samples of that local day whose clock hour is in [h0, h1)."""
        return self.s.mask(day_of(d), h0, h1)

    def p_span(self, d0: Any, h0: float, d1: Any, h1: float) -> np.ndarray:
        """The samples from local (d0, h0) up to, not including, (d1, h1), by the wall clock."""
        return self.s.span(day_of(d0), h0, day_of(d1), h1)

    def p_spans(self, windows: Sequence[Sequence[Any]]) -> np.ndarray:
        """The samples inside any of the windows [d0, h0, d1, h1] (each as `span`)."""
        out = np.zeros(self.s.n, bool)
        for d0, h0, d1, h1 in windows:
            out |= self.s.span(day_of(d0), h0, day_of(d1), h1)
        return out

    def p_from_time(self, d: Any, h: float) -> np.ndarray:
        """The samples from local (d, h) to the end of the data."""
        t = dt.datetime.combine(day_of(d), dt.time(0), self.s.tz) + dt.timedelta(hours=h)
        return np.array([x >= t for x in self.s.local])

    def p_hours(self, h0: float, h1: float) -> np.ndarray:
        """Every day's samples whose clock hour is in [h0, h1) (h0 > h1: over midnight)."""
        return self.s.hours(h0, h1)

    def p_at(self, d: Any, h: float) -> int:
        """The index of the one sample at that local day and clock hour."""
        return self.s.at(day_of(d), h)

    def p_day_index(self, d: Any) -> int:
        """The day's number in the plant (the first day 0): compare with `day_i`."""
        return (day_of(d) - self.plant.start).days

    def p_unix_secs(self) -> np.ndarray:
        """Each sample's instant as seconds since 1970-01-01 00:00 UTC (a cycle in absolute time)."""
        t0 = self.s.utc[0].timestamp()
        out: np.ndarray = self.s.secs + t0
        return out

    def p_site_dis(self) -> str:
        """The current site's `dis` (its name)."""
        return self.s.dis

    def p_since(self, d: Any, h: float) -> np.ndarray:
        """Hours since local (d, h), negative before it."""
        return kit.since(self.s, day_of(d), h)

    def p_ramp_between(self, d0: Any, h0: float, d1: Any, h1: float) -> np.ndarray:
        """0 before local (d0, h0), rising linearly to 1 at (d1, h1), 1 after."""
        s = self.s
        a, b = s.secs[s.at(day_of(d0), h0)], s.secs[s.at(day_of(d1), h1)]
        out: np.ndarray = np.clip((s.secs - a) / (b - a), 0.0, 1.0)
        return out

    def p_keep_gap(self, d: Any, h0: float, hours: float = 4.0) -> np.ndarray:
        """A point's `keep`: False for `hours` from local hour h0 on that day (the samples left out)."""
        return kit.keep_gap(self.s, day_of(d), h0, hours)

    # ----- shapes ------------------------------------------------------------------------------------------------
    def p_daily(self, amp: float, peak_hour: float = 15.0) -> np.ndarray:
        """A daily cosine of amplitude `amp` peaking at that local clock hour."""
        return kit.daily(self.s, amp, peak_hour)

    def p_by_day(self, vals: Any) -> np.ndarray:
        """One value per day of the plant (a list or an array of days), spread over each day's samples."""
        return self.s.by_day(vals)

    def p_by_date(self, table: dict[Any, float], default: float) -> np.ndarray:
        """A value per local date ({day: value}), `default` on the others."""
        return kit.by_date(self.s, {day_of(k): v for k, v in table.items()}, default)

    def p_bump(self, d: Any, h0: float, h1: float) -> np.ndarray:
        """A half-sine from 0 at local hour h0 to 1 and back to 0 at h1 on that day."""
        return kit.bump(self.s, day_of(d), h0, h1)

    def p_tent(self, d: Any, h0: float, hp: float, h1: float, height: float) -> np.ndarray:
        """A peak of `height` on that day, rising linearly from local hour h0 to hp and falling to h1 (0 elsewhere):
        height x (h - h0) / (hp - h0), then height x (h1 - h) / (h1 - hp) (`triangle` multiplies first)."""
        day = day_of(d)
        out = np.zeros(self.s.n)
        for i, (x, h) in enumerate(zip(self.s.date, self.s.hour)):
            if x == day and h0 <= h <= h1:
                out[i] = height * ((h - h0) / (hp - h0) if h <= hp else (h1 - h) / (h1 - hp))
        return out

    def p_bump_hours(self, h0: float, h1: float) -> np.ndarray:
        """A half-sine over the local hours [h0, h1) of every day (0 outside)."""
        x = np.clip((self.s.hour - h0) / (h1 - h0), 0.0, 1.0)
        return np.where(self.s.hours(h0, h1), np.sin(math.pi * x), 0.0)

    def p_triangle(self, d: Any, h_start: float, h_peak: float, h_end: float, height: float) -> np.ndarray:
        """A triangle of `height`, up from h_start to h_peak and down to h_end on that day."""
        return kit.triangle(self.s, day_of(d), h_start, h_peak, h_end, height)

    def p_cycle(self, anchor: Any, period: int, first: int, marks: Sequence[Sequence[float]]) -> np.ndarray:
        """A repeating schedule of stages: the cycle's day c runs first .. first + period - 1 (day 0 is `anchor`);
        `marks` are each stage's start [day, clock hour], in order. Each sample gets the number of its stage (0 the
        first): the latest mark at or before its (c, clock hour); before the first mark, the last stage."""
        s = self.s
        a = day_of(anchor)
        c = np.array([((d - a).days - first) % period + first for d in s.date])
        idx = np.full(s.n, len(marks) - 1)
        for j, (md, mh) in enumerate(marks):
            idx = np.where((c > md) | ((c == md) & (s.hour >= mh)), j, idx)
        return idx

    def p_trail(self, starts: np.ndarray, values: Sequence[float]) -> np.ndarray:
        """After each start (True in `starts`) the next samples take values[0], values[1], ... (the larger where two
        trails overlap); 0 elsewhere: a warming after each ice flood."""
        out = np.zeros(self.s.n)
        for i in np.flatnonzero(starts):
            for j, a in enumerate(values):
                if i + 1 + j < self.s.n:
                    out[i + 1 + j] = max(out[i + 1 + j], a)
        return out

    def p_steps_since(self, starts: np.ndarray, count: int) -> np.ndarray:
        """For each sample, how many samples since the latest start (True in `starts`) if under `count`, else -1."""
        out = np.full(self.s.n, -1)
        for k in np.flatnonzero(starts):
            for j in range(count):
                if k + j < len(out):
                    out[k + j] = j
        return out

    # ----- events and transforms ---------------------------------------------------------------------------------
    def p_put(self, x: np.ndarray, d: Any, values: dict[float, float]) -> np.ndarray:
        """x with the samples of that day at the given clock hours set ({hour: value}): an event sample by sample."""
        out = np.array(x, copy=True)
        kit.put(self.s, out, day_of(d), values)
        return out

    def p_lift(self, x: np.ndarray, d: Any, values: dict[float, float]) -> np.ndarray:
        """x with the given amounts added to the samples of that day at those clock hours ({hour: amount})."""
        out = np.array(x, copy=True)
        for h, v in values.items():
            out[self.s.at(day_of(d), h)] += v
        return out

    def p_set_at(self, x: np.ndarray, i: int, value: float) -> np.ndarray:
        """x with sample number i (an `at(...)`) set to value."""
        out = np.array(x, copy=True)
        out[i] = value
        return out

    def p_peak_once(self, x: np.ndarray, mask: np.ndarray, extra: float) -> np.ndarray:
        """x with its largest value inside `mask` lifted by `extra` (one clear top)."""
        return kit.peak_once(x, mask, extra)

    def p_centred(self, x: np.ndarray, d: Any) -> np.ndarray:
        """x with its mean over that day removed on that day (a designed daily mean made exact)."""
        return kit.centred(self.s, x, day_of(d))

    def p_lag(self, x: np.ndarray, k: float) -> np.ndarray:
        """A first-order lag: each sample moves the fraction k towards the input."""
        return kit.lag(x, k)

    def p_register(self, rate: np.ndarray, start: float, per_hour: float = 1.0, scale: float = 1.0) -> np.ndarray:
        """A cumulative register: `start` + the running trapezoid of `rate` over hours (x per_hour, total x scale)."""
        return kit.register(self.s, rate, start, per_hour, scale)

    def p_integral(self, rate: np.ndarray, start: float, per: float) -> np.ndarray:
        """`start` + the running trapezoid of `rate` over seconds / `per` (3600: kW to kWh; 1000: L/s to m³)."""
        rate = np.asarray(rate)
        inc = (rate[1:] + rate[:-1]) / 2 * np.diff(self.s.secs) / per
        out: np.ndarray = start + np.concatenate([[0.0], np.cumsum(inc)])
        return out

    def p_arch(self, d: Any, h: float, hours: float, height: float) -> np.ndarray:
        """height x a half-sine over `hours` (absolute time) from local (d, h), both ends included, 0 elsewhere
        (set 1)."""
        x = kit.since(self.s, day_of(d), h)
        out: np.ndarray = np.where((x >= 0) & (x <= hours), height * np.sin(np.pi * x / hours), 0.0)
        return out

    def p_linear_in(self, mask: np.ndarray, a: float, b: float) -> np.ndarray:
        """0 outside `mask`; inside it a straight line from a to b over its samples (numpy's linspace)."""
        out = np.zeros(self.s.n)
        out[np.asarray(mask, bool)] = np.linspace(a, b, int(np.sum(mask)))
        return out

    def p_full(self, v: Any) -> np.ndarray:
        """The value v at every sample (True: a Bool that is always true)."""
        return np.full(self.s.n, v)

    def p_zeros(self) -> np.ndarray:
        """0.0 at every sample."""
        return np.zeros(self.s.n)


#: the plant-bound pieces (methods p_<name> of Pieces)
PIECES = tuple(n[2:] for n in vars(Pieces) if n.startswith("p_"))
