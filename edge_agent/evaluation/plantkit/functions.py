"""The functions a plant file's expressions call that need no plant (docs/plants.md): numpy's element-wise ones and
Python's for plain numbers and lists, each under a plain name (`NUMPY`), and the streams of their own and texts of the
generated plants (`STREAMS_AND_TEXTS`, merged into `NUMPY`). pieces.py holds the plant-bound pieces."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

MAX_ARANGE = 10_000_000


def _scalar(x: Any) -> bool:
    return type(x) in (int, float, bool)


def _math_or_np(name: str) -> Callable[[Any], Any]:
    """math.<name> on a plain Python number (as a script's math.exp(...) gave it), numpy's on anything else."""
    mf, nf = getattr(math, name), getattr(np, name)

    def f(x: Any) -> Any:
        return mf(x) if _scalar(x) else nf(x)

    f.__name__ = name
    return f


def _clip(x: Any, lo: Any = None, hi: Any = None) -> Any:
    return np.clip(x, lo, hi)


def _select(conds: Sequence[Any], values: Sequence[Any], default: Any = 0) -> np.ndarray:
    return np.select(list(conds), list(values), default)


def _moving(x: Any, k: int, before: int) -> np.ndarray:
    """The mean of k samples, `before` of them before each (the ends padded with the first and last value)."""
    ker = np.ones(k) / k
    return np.convolve(np.pad(np.asarray(x, float), (before, k - 1 - before), mode="edge"), ker, mode="valid")


def _smooth(x: Any, k: int) -> np.ndarray:
    """A centred moving mean over k samples (set 1)."""
    return _moving(x, k, k // 2)


def _trailing_mean(x: Any, k: int) -> np.ndarray:
    """The mean of each sample and the k - 1 before it (set 2's oxygen demand)."""
    return _moving(x, k, k - 1)


def _arange(*args: Any) -> np.ndarray:
    out = np.arange(*args)
    if out.size > MAX_ARANGE:
        raise ValueError(f"arange of {out.size} values: at most {MAX_ARANGE}")
    return out


def _shift(x: Any, k: int, fill: Any) -> np.ndarray:
    """x moved k samples later, the first k samples `fill`."""
    x = np.asarray(x)
    out: np.ndarray = np.concatenate([np.full(k, fill), x[:-k]]) if k else x.copy()
    return out


def _pick(idx: Any, values: Sequence[Any]) -> np.ndarray:
    out: np.ndarray = np.asarray(values)[idx]
    return out


def _lookup(labels: Any, table: dict[Any, Any]) -> np.ndarray:
    return np.array([table[x] for x in np.asarray(labels).tolist()])


#: plain functions: numpy's element-wise ones, and Python's for plain numbers and lists
NUMPY: dict[str, Callable[..., Any]] = {
    "where": np.where,
    "select": _select,
    "clip": _clip,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "exp": _math_or_np("exp"),
    "sin": _math_or_np("sin"),
    "cos": _math_or_np("cos"),
    "sqrt": _math_or_np("sqrt"),
    "roll": np.roll,
    "smooth": _smooth,
    "trailing_mean": _trailing_mean,
    "isnan": np.isnan,
    "isin": np.isin,
    "cumsum": np.cumsum,
    "round": np.round,
    "mean": np.mean,
    "argmax": np.argmax,
    "amax": np.max,
    "amin": np.min,
    "arange": _arange,
    "array": np.array,
    "pick": _pick,
    "shifted": _shift,
    "lookup": _lookup,
    "min": min,
    "max": max,
    "abs": abs,
    "sum": sum,
    "len": len,
    "values": lambda d: list(d.values()),
    "endswith": lambda text, suffix: str(text).endswith(suffix),
    "float": float,
    "as_int": lambda x: np.asarray(x).astype(int),
    "as_float": lambda x: np.asarray(x).astype(float),
    "int": int,
}


# ----- streams of their own, texts, Python's numbers (docs/plants.md "Streams and texts") ---------------------------
def _stream(seed: str) -> random.Random:
    """A random stream of its own, seeded by a text (Python's Mersenne Twister, `random.Random(text)`): what it draws
    moves no other stream, the plant's one generator included."""
    return random.Random(str(seed))


def _gauss(r: random.Random, mu: float, sigma: float) -> float:
    """One normal draw from the stream (Python's `gauss`: it draws in pairs and keeps the second)."""
    return r.gauss(mu, sigma)


def _gauss_list(r: random.Random, mu: float, sigma: float, count: int) -> list[float]:
    """`count` normal draws from the stream, as a list."""
    return [r.gauss(mu, sigma) for _ in range(int(count))]


def _round_to(x: Any, ndigits: int | None = None) -> Any:
    """Python's `round` (exact decimal rounding, halves to even; without `ndigits` an integer), element by element on
    an array or a list (numpy's `round` scales, rounds and scales back, which can differ in the last decimal)."""
    if np.ndim(x) == 0:
        return round(float(x), ndigits)
    return np.array([round(float(v), ndigits) for v in np.asarray(x).tolist()])


STREAMS_AND_TEXTS: dict[str, Callable[..., Any]] = {
    "stream": _stream,
    "gauss": _gauss,
    "gauss_list": _gauss_list,
    "rand": lambda r: r.random(),
    "rand_between": lambda r, a, b: r.uniform(a, b),
    "round_to": _round_to,
    "as_list": lambda x: np.asarray(x).tolist() if isinstance(x, np.ndarray) else list(x),
    "str": str,
    "lower": lambda text: str(text).lower(),
    "replace": lambda text, old, new: str(text).replace(old, new),
    "items": lambda d: [[k, v] for k, v in d.items()],
}
NUMPY.update(STREAMS_AND_TEXTS)
