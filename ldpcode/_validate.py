"""Input checks shared by every public function of :mod:`ldpcode`.

Each check raises ``ValueError`` (or ``TypeError`` for a wrong type) whose message names the
parameter, the value received and what is allowed, so that a mistaken notebook parameter fails
before any simulation starts.
"""
from __future__ import annotations

import math
import numbers

import numpy as np


def _is_real(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def check_real(name: str, value, *, allow_inf: bool = False) -> float:
    """Return ``value`` as a float, or raise if it is not a real number (``nan`` is never allowed)."""
    if not _is_real(value):
        raise TypeError(f"{name} must be a real number, got {value!r} of type {type(value).__name__}")
    value = float(value)
    if math.isnan(value) or (not allow_inf and math.isinf(value)):
        allowed = "a number (inf allowed)" if allow_inf else "a finite number"
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return value


def check_epsilon(value, name: str = "epsilon") -> float:
    """A privacy level: a finite real number strictly greater than 0."""
    if not _is_real(value):
        raise TypeError(f"{name} must be a real number > 0, got {value!r} of type {type(value).__name__}")
    value = float(value)
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return value


def check_int(name: str, value, *, minimum: int | None = None) -> int:
    """An integer (``bool`` refused), optionally at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        # Accept floats that are whole numbers, such as 1e6, which readers type for horizons.
        if _is_real(value) and math.isfinite(float(value)) and float(value).is_integer():
            value = int(value)
        else:
            raise TypeError(f"{name} must be an integer, got {value!r} of type {type(value).__name__}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}")
    return value


def check_probability_vector(name: str, values) -> np.ndarray:
    """A non-empty 1-d array of finite numbers in [0, 1] (means of bounded arms)."""
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a sequence of numbers in [0, 1], got {values!r}") from exc
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-d sequence of numbers in [0, 1], got shape {arr.shape}")
    bad = ~np.isfinite(arr) | (arr < 0) | (arr > 1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name}[{i}] must be in [0, 1], got {arr[i]!r}")
    return arr


def check_unit_interval(name: str, values) -> np.ndarray:
    """Rewards given to a bounded curator (CTL, CTB): every entry finite and in [0, 1]."""
    arr = np.asarray(values, dtype=float)
    bad = ~np.isfinite(arr) | (arr < 0) | (arr > 1)
    if bad.any():
        idx = np.unravel_index(int(np.flatnonzero(bad.ravel())[0]), arr.shape) if arr.ndim else ()
        raise ValueError(
            f"{name} must lie in [0, 1] for this curator, got {arr[idx]!r} at index {idx}; "
            "use the Sigmoid versions (CTL-S, CTB-S) for unbounded rewards"
        )
    return arr


def check_finite_array(name: str, values) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must contain only finite numbers")
    return arr


def check_choice(name: str, value, known) -> str:
    """A name from a registry; the message lists the known names."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, one of {sorted(known)}, got {value!r}")
    if value not in known:
        raise ValueError(f"unknown {name} {value!r}; known: {', '.join(sorted(known))}")
    return value
