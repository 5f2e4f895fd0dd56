"""Input checks shared by every public function of :mod:`ldpcode`.

Each check raises ``ValueError`` (or ``TypeError`` for a wrong type) whose message names the
parameter, the value received and what is allowed, so that a mistaken notebook parameter fails
before any simulation starts.
"""

from __future__ import annotations

import math
import numbers
import reprlib

import numpy as np


def _is_real(x) -> bool:
    # np.timedelta64 is an np.signedinteger, hence a numbers.Integral: a duration is not a count or a level
    return isinstance(x, numbers.Real) and not isinstance(x, (bool, np.timedelta64, np.datetime64))


class _MessageRepr(reprlib.Repr):
    """:mod:`reprlib` with room for a message's worth of items, and an integer beyond 100 bits shown by its size:
    ``repr`` of an integer of more than 4,300 digits raises ValueError (Python's limit), which a message about a
    parameter must not."""

    def __init__(self, limit: int):
        super().__init__()
        self.maxlevel, self.maxlist, self.maxtuple, self.maxdict, self.maxset = 4, 64, 64, 32, 32
        self.maxstring = self.maxother = self.maxlong = limit

    def repr_int(self, x, level):
        return f"an integer of about 2**{x.bit_length() - 1}" if x.bit_length() > 100 else repr(x)


def one_line(value, limit: int = 160) -> str:
    """``repr(value)`` for a message: on one line (an array's repr ran over lines), at most ``limit`` characters, and
    bounded in cost whatever the value (:class:`_MessageRepr`: a list of a million items is not formatted whole, and
    an integer of 10^5000 is shown by its size). The one bounded repr of the package's messages."""
    text = " ".join(_MessageRepr(limit).repr(value).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def array_or_value(value) -> str:
    """A value for a message about its type: an ndarray by its dtype and shape (its entries say nothing of why it
    was refused, and fill the message), anything else by :func:`one_line`."""
    if isinstance(value, np.ndarray):
        return f"an array of dtype {value.dtype}, shape {value.shape}"
    return one_line(value)


def flat_text(text, width: int = 400) -> str:
    """``str(text)`` (a message, an exception) on one line, whitespace runs collapsed, cut to ``width`` characters: the
    one flattening of a text for the command line's errors and the rules' messages (:func:`one_line` is for values)."""
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _to_float(name: str, value, allowed: str) -> float:
    """float(value) for a real ``value``; one beyond the doubles (2**1100 raised OverflowError) is a ValueError."""
    try:
        return float(value)
    except OverflowError:
        shown = f"an integer of {int(value).bit_length()} bits" if isinstance(value, numbers.Integral) else "a number"
        raise ValueError(f"{name} must be {allowed}, got {shown}, beyond the largest double (1.8e308)") from None


def check_real(name: str, value, *, allow_inf: bool = False) -> float:
    """Return ``value`` as a float, or raise if it is not a real number (``nan`` is never allowed)."""
    if not _is_real(value):
        raise TypeError(f"{name} must be a real number, got {one_line(value)} of type {type(value).__name__}")
    value = _to_float(name, value, "a number (inf allowed)" if allow_inf else "a finite number")
    if math.isnan(value) or (not allow_inf and math.isinf(value)):
        allowed = "a number (inf allowed)" if allow_inf else "a finite number"
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return value


EPSILON_FLOOR = 1e-9
"""The smallest privacy level ldpcode computes with (:func:`check_epsilon`). The papers go down to 1e-4. At
1e-9 every quantity of the engine stays finite for any horizon below 2^63: 1/eps^2 = 1e18 (LDP-UCB-L's and
HeLDP-UCB-L's A_a, HeLDP-UCB-B's B_a = coth^2(eps/2) ~ 4/eps^2) times T < 9.3e18 is below 1e37; and CTB still
tells the two rewards apart to 5e-7 relative (its P{1} - 1/2 ~ eps/4 against a double spacing of 1.1e-16
near 1/2). Far below it, 1/eps^2 overflows (eps < 1e-154), CTB's e^eps rounds to 1 (a fair coin: eps < 1.1e-16),
and indexes become inf or nan: at eps = 1e-310 every index was nan and the agent pulled the last arm."""

#: the largest exploration parameter alpha of Azize and Basu's index policies: at 1e308 every index was inf (at 1e300,
#: 1e150, with the means below its ulp), and the order of the arms decided. A cap, not a guarantee: at the smallest
#: eps (EPSILON_FLOOR) an alpha of 1e6 still makes the privacy bonus dwarf the means
MAX_ALPHA = 1e6


def check_epsilon(value, name: str = "epsilon", *, floor: float = EPSILON_FLOOR) -> float:
    """A privacy level: a finite real number >= ``floor`` (default :data:`EPSILON_FLOOR`); ``floor=0``
    for a positive constant that is not a privacy level."""
    if not _is_real(value):
        raise TypeError(f"{name} must be a real number > 0, got {one_line(value)} of type {type(value).__name__}")
    value = _to_float(name, value, "a finite number > 0")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    if value < floor:
        raise ValueError(
            f"{name} must be >= {floor:g} (ldpcode's EPSILON_FLOOR: below it the privacy "
            f"arithmetic leaves double precision), got {value!r}"
        )
    return value


DELTA_FLOOR = 5e-324
"""The smallest δ ldpcode computes with (:func:`check_delta`): the smallest positive double (``math.ulp(0.0)``), so
every δ in (0, 1) is accepted. No floor above it is needed, because every formula of ldpcode that divides by δ
computes log(a/δ) as log a − log δ where a/δ overflows (``ldpcode.mechanisms.gaussian._log_ratio``). Then
log(1.25/δ) <= log 1.25 + 744.44 = 744.66 and the Gaussian mechanism's σ = Δ√(2 log(1.25/δ))/ε <= 38.6 Δ/ε
(3.9e10 Δ at EPSILON_FLOOR). The range of :func:`ldpcode.bco.noisy_range` keeps log(T/δ) <= 781.2 for T <= 2^53.
A setting whose σ, σ² or range still leaves the doubles (a sensitivity near 1e150) is refused by name. At the top,
δ → 1 leaves log(1.25/δ) → log 1.25 > 0, so σ stays positive. Before the floor was documented, 1.25/δ overflowed to
inf for δ below about 1e-308: σ was infinite, and OnePoint-UCB at δ = 5e-324 played arm 0 forever. δ = 0 (the
Gaussian mechanism has no pure-ε guarantee) and δ >= 1 (no guarantee at all) are refused."""


def check_delta(value, name: str = "delta") -> float:
    """The δ of an (ε, δ) guarantee: a real number in (0, 1), hence >= :data:`DELTA_FLOOR` (the smallest positive
    double: every δ the interval holds is accepted). The message is :func:`check_probability`'s."""
    return check_probability(name, value)


def check_probability(name: str, value, *, low_closed: bool = False) -> float:
    """A probability such as delta or a confidence level alpha: a real number in (0, 1) (``[0, 1)`` with
    ``low_closed``); a percentage such as 5 or 95 is refused with a message saying so."""
    if not _is_real(value):
        raise TypeError(
            f"{name} must be a probability, a real number in (0, 1), got {one_line(value)} of type {type(value).__name__}"
        )
    value = _to_float(name, value, f"a probability in {'[0, 1)' if low_closed else '(0, 1)'}")
    ok = (0.0 <= value < 1.0) if low_closed else (0.0 < value < 1.0)
    if not ok:
        interval = "[0, 1)" if low_closed else "(0, 1)"
        hint = f" (a percentage? {value:g}% is {value / 100:g})" if 1.0 < value <= 100.0 else ""
        raise ValueError(f"{name} must be a probability in {interval}{hint}, got {value!r}")
    return value


def _show_int(n: int) -> str:
    """An integer bound as a reader types it: 2**53 rather than 9007199254740992."""
    return (
        f"2**{n.bit_length() - 1}"
        if n > 2**20 and n & (n - 1) == 0
        else f"{n:,}".replace(",", "_")
        if n > 10**6
        else str(n)
    )


def check_int(name: str, value, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer (``bool`` refused), optionally at least ``minimum`` and at most ``maximum``; returned as an int.

    A whole float (1e6, which readers type for horizons) is accepted and converted, so the caller never sees a
    float. A notebook parameter is checked more strictly (:class:`ldpcode.parameters.rules.Int` refuses 1e6), because
    there the check cannot convert the variable the notebook goes on using."""
    if isinstance(value, (bool, np.timedelta64)) or not isinstance(value, (numbers.Integral, np.integer)):
        # Accept floats that are whole numbers, such as 1e6, which readers type for horizons; a Fraction or a long
        # double is whole only if it equals its integer exactly (its float may round 2**52 + 0.5 to a whole)
        whole = _is_real(value) and math.isfinite(float(value)) and float(value).is_integer()
        if whole and not isinstance(value, (float, np.float64, np.float32, np.float16)):
            whole = value == int(value)
        if whole:
            value = int(value)
        else:
            raise TypeError(f"{name} must be an integer, got {one_line(value)} of type {type(value).__name__}")
    value = int(value)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        allowed = f">= {minimum}" if minimum is not None and value < minimum else f"<= {_show_int(maximum)}"
        shown = str(value) if value.bit_length() <= 128 else f"an integer of {value.bit_length()} bits"
        raise ValueError(f"{name} must be an integer {allowed}, got {shown}")
    return value


MAX_SEED = 2**128
"""The largest seed ldpcode takes (as the notebooks' rule ``SEED``): a seed is a word of a ``SeedSequence``'s entropy, and
a seed of 5,000 digits ran, then could not be written into a saved table's provenance."""


def check_seed(name: str, value) -> int:
    """A seed: an integer in [0, :data:`MAX_SEED`]. A whole float is taken up to 2**53 only: beyond, the double is not
    the number typed (``1e23`` is 99999999999999991611392), so the run would use another seed than the one written."""
    if isinstance(value, (float, np.floating)) and abs(float(value)) > 2**53:
        raise TypeError(
            f"{name} must be an integer: a float above 2**53 may not be the number typed ({value!r} is "
            f"{int(value) if math.isfinite(value) else value} as a double); write it as an integer"
        )
    return check_int(name, value, minimum=0, maximum=MAX_SEED)


MAX_COUNT = 2**53
"""The largest count ldpcode takes where no tighter cap applies (a sample size, bootstrap replicates, grid points),
and the engines' largest horizon (``ldpcode.limits.MAX_HORIZON`` is this one): every integer up to it is exact in a
double. Beyond the doubles a count raised OverflowError in the cost estimates ("int too large to convert to float")."""


def check_size(size, name: str = "size", maximum: int | None = None):
    """A sample size: an integer >= 0 or a tuple of them (a shape), each at most ``maximum`` (None: no cap); a
    negative or fractional size, or a bool, failed deep in NumPy ("negative dimensions are not allowed")."""
    if isinstance(size, tuple):
        return tuple(check_int(f"{name}[{i}]", s, minimum=0, maximum=maximum) for i, s in enumerate(size))
    return check_int(name, size, minimum=0, maximum=maximum)


def check_sample_size(size, name: str = "size"):
    """A sample size as :func:`check_size` checks it (an integer >= 0 or a tuple of them), each at most
    :data:`MAX_COUNT`; returns it with its number of draws, a float (inf for many dimensions of 2**53), for the caller's
    limits check (:func:`ldpcode.limits.check_limits`) before any draw: a size of 10**12 raised MemoryError
    (terabytes), and 10**400 NumPy's "Maximum allowed dimension exceeded", which named nothing."""
    checked = check_size(size, name, MAX_COUNT)
    return checked, math.prod(float(c) for c in (checked if isinstance(checked, tuple) else (checked,)))


def check_same_shape(**arrays) -> tuple:
    """The shape the named arrays broadcast to, or a ValueError naming them (NumPy's "shape mismatch: objects cannot be
    broadcast to a single shape. Mismatch is between arg 0 ..." named no argument)."""
    try:
        return np.broadcast_shapes(*(np.shape(a) for a in arrays.values()))
    except ValueError:
        shapes = ", ".join(f"{k} {np.shape(a)}" for k, a in arrays.items())
        raise ValueError(f"{', '.join(arrays)} must broadcast to one shape, got shapes {shapes}") from None


def check_probability_vector(name: str, values) -> np.ndarray:
    """A non-empty 1-d array of finite numbers in [0, 1] (means of bounded arms)."""
    arr = as_float_array(name, values, bools=False)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-d sequence of numbers in [0, 1], got shape {arr.shape}")
    bad = ~np.isfinite(arr) | (arr < 0) | (arr > 1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name}[{i}] must be in [0, 1], got {float(arr[i])!r}")
    return arr


def _has_bool(values) -> bool:
    """Whether a (nested) list or tuple holds a bool: NumPy turns [True, 0.5] into [1.0, 0.5] silently."""
    if isinstance(values, (bool, np.bool_)):
        return True
    return isinstance(values, (list, tuple)) and any(_has_bool(v) for v in values)


def as_float_array(name: str, values, *, bools: bool = True) -> np.ndarray:
    """``values`` as a float array, or a TypeError naming ``name`` (strings, bytes, dicts, sets, None and
    ragged or non-numeric sequences are refused; NumPy would turn ``"0.5"`` into 0.5). With ``bools=False``
    an array of bools, or a sequence holding one (``means=[True, False]``), is refused too."""

    def refuse():
        shown = array_or_value(values)
        raise TypeError(f"{name} must be a number or an array of numbers, got {shown} of type {type(values).__name__}")

    if values is None or isinstance(values, (str, bytes, dict, set, frozenset, complex)):
        refuse()
    nested = isinstance(values, (list, tuple)) and any(isinstance(v, np.ma.MaskedArray) for v in values)
    if isinstance(values, np.ma.MaskedArray) or nested:  # np.asarray drops the mask: masked entries would be data
        raise TypeError(
            f"{name} must not be a masked array (its masked entries would be used); fill or compress it first"
        )
    try:
        raw = np.asarray(values)
    except (TypeError, ValueError):
        refuse()
    if (
        raw.dtype == object
        and not isinstance(values, np.ndarray)
        and all(isinstance(v, numbers.Real) for v in raw.flat)
    ):
        # Python integers beyond int64 (2**70) make an object array: they are numbers, compared as doubles
        try:
            raw = raw.astype(float)
        except OverflowError:
            raise ValueError(
                f"{name} must hold numbers below the largest double (1.8e308), got an integer beyond it"
            ) from None
    if raw.dtype.kind not in "biuf" or raw.dtype == object:
        refuse()
    if raw.dtype.kind == "b" and raw.ndim == 0:
        refuse()  # True is not a number here
    if not bools and (raw.dtype.kind == "b" or _has_bool(values)):
        shown = f"an array of bools of shape {raw.shape}" if isinstance(values, np.ndarray) else one_line(values)
        raise TypeError(f"{name} must hold numbers, not bools (True/False), got {shown}")
    return raw.astype(float)


def check_rounds(name: str, values, *, horizon: int | None = None) -> np.ndarray:
    """``values`` as an int64 array of rounds: a non-empty, strictly increasing 1-d sequence of whole numbers in
    [1, ``horizon``] (``>= 1`` when no horizon is given; never beyond the largest horizon, :data:`MAX_COUNT`). The one
    check of a list of checkpoints (the engine's, a horizon range's, a sum's), so that an unsorted or repeated list
    (a range that lost its start, a match reported at another t), a fractional one (1000.7 read as 1000) or a bool
    ([True, 100] read as the rounds [1, 100]) is refused alike. Integers are compared exactly; Python integers beyond
    int64 arrive as doubles, beyond any horizon."""
    top = MAX_COUNT if horizon is None else horizon  # MAX_COUNT is ldpcode.limits.MAX_HORIZON
    most = f"2**{top.bit_length() - 1}" if top & (top - 1) == 0 else f"{top:,}"
    span = f"in [1, {most}] (the largest horizon)" if horizon is None else f"in [1, horizon={horizon}]"
    cpf = as_float_array(name, values, bools=False)
    if cpf.ndim != 1 or cpf.size == 0 or not np.isfinite(cpf).all() or (cpf != np.round(cpf)).any():
        raise ValueError(f"{name} must be a 1-d sequence of whole rounds {span}, got {one_line(values, 120)}")
    if cpf.min() < 1 or cpf.max() > top:
        raise ValueError(f"{name} must be a strictly increasing sequence of rounds {span}, got {one_line(values, 120)}")
    raw = np.asarray(values)
    rounds = raw.astype(np.int64) if raw.dtype.kind in "iu" else cpf.astype(np.int64)  # ints compared exactly
    if (np.diff(rounds) <= 0).any() or rounds[0] < 1 or rounds[-1] > top:
        raise ValueError(f"{name} must be a strictly increasing sequence of rounds {span}, got {one_line(values, 120)}")
    return rounds


def check_array(
    name: str,
    values,
    *,
    ndim: int | None = None,
    min_size: int = 0,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
) -> np.ndarray:
    """A float array of ``ndim`` dimensions (any if None) and at least ``min_size`` entries, every entry
    finite and in the interval [low, high] (``low_open``/``high_open`` exclude an end). Raises TypeError
    for a non-numeric value or a bool and ValueError naming the first bad entry and its index."""
    arr = as_float_array(name, values, bools=False)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-d array, got shape {arr.shape}")
    if arr.size < min_size:
        raise ValueError(f"{name} must hold at least {min_size} numbers, got {arr.size}")
    bad = ~np.isfinite(arr)
    if low is not None:
        bad |= (arr <= low) if low_open else (arr < low)
    if high is not None:
        bad |= (arr >= high) if high_open else (arr > high)
    if bad.any():
        idx = (
            tuple(int(i) for i in np.unravel_index(int(np.flatnonzero(bad.ravel())[0]), arr.shape)) if arr.ndim else ()
        )
        if low is not None and high is not None:
            allowed = f"in {'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
        elif low is not None:
            allowed = f"finite and {'>' if low_open else '>='} {low:g}"
        elif high is not None:
            allowed = f"finite and {'<' if high_open else '<='} {high:g}"
        else:
            allowed = "finite"
        where = tuple(int(i) for i in idx)
        at = f" at index {where if len(where) != 1 else where[0]}" if arr.ndim else ""
        raise ValueError(f"{name} must be {allowed}, got {float(arr[idx])!r}{at}")
    return arr


def check_vector(name: str, values, *, min_size: int, positive: bool = False, note: str = "") -> np.ndarray:
    """A 1-d float array of at least ``min_size`` finite numbers (> 0 with ``positive``); the message names the shape or
    the first bad entry, on one line (the repr of a long array ran over many)."""
    arr = as_float_array(name, values)
    bad = np.flatnonzero(~np.isfinite(arr) | (arr <= 0 if positive else False))
    if arr.ndim != 1 or arr.size < min_size:
        got = f"shape {arr.shape}"
    elif bad.size:
        got = f"{float(arr[bad[0]])!r} at index {bad[0]}"
    else:
        return arr
    kind = "finite positive" if positive else "finite"
    raise ValueError(f"{name} must be a 1-d array of at least {min_size} {kind} numbers{note}, got {got}")


def check_rng(name: str, rng) -> np.random.Generator:
    """A NumPy ``Generator`` (``np.random.default_rng(seed)``)."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"{name} must be a numpy.random.Generator (np.random.default_rng(seed)), got {one_line(rng)}")
    return rng


def check_unit_interval(name: str, values, ndim: int | None = None) -> np.ndarray:
    """Rewards given to a bounded curator (CTL, CTB): every entry finite and in [0, 1]; with ``ndim``,
    the array must have that many dimensions (``ndim=1`` for a vector of rewards, ``2`` for a table)."""
    arr = as_float_array(name, values)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-d array of numbers in [0, 1], got shape {arr.shape}")
    bad = ~np.isfinite(arr) | (arr < 0) | (arr > 1)
    if bad.any():
        idx = (
            tuple(int(i) for i in np.unravel_index(int(np.flatnonzero(bad.ravel())[0]), arr.shape)) if arr.ndim else ()
        )
        raise ValueError(
            f"{name} must lie in [0, 1] for this curator, got {float(arr[idx])!r}"
            f"{f' at index {idx if len(idx) != 1 else idx[0]}' if arr.ndim else ''}; "
            "use the Sigmoid versions (CTL-S, CTB-S) for unbounded rewards"
        )
    return arr


def check_finite_array(name: str, values) -> np.ndarray:
    arr = as_float_array(name, values)
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must contain only finite numbers")
    return arr


def check_result(name: str, value) -> float:
    """What a caller's function ``name`` returned, as a float: one number (a size-1 array too); anything else is refused
    by name (an array was NumPy's "only 0-dimensional arrays can be converted to Python scalars")."""
    try:
        if value is not None and not isinstance(value, (str, bytes, bool, np.bool_)) and np.size(value) == 1:
            return float(np.asarray(value, dtype=float).reshape(()))
    except (TypeError, ValueError):
        pass
    shown = f"an array of shape {np.shape(value)}" if np.ndim(value) else repr(value)[:60]
    raise TypeError(f"{name} must return one number, got {shown} of type {type(value).__name__}")


def check_bool(name: str, value) -> bool:
    """A flag: ``True`` or ``False`` (a NumPy bool too), returned as a bool. A string is refused: ``"no"`` is truthy,
    and ``paired="no"`` ran paired; so are 0 and 1, which say nothing a bool does not."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {one_line(value)} of type {type(value).__name__}")
    return bool(value)


def close_name(name: str, known) -> str | None:
    """The name of ``known`` that a misspelt ``name`` most likely means, or None: one that differs from it only in
    case and punctuation first (``ldp-ucb-b`` is ``LDP-UCB-B``, ``CTLS`` is ``CTL-S``), else difflib's closest (a
    ratio of at least 0.6, difflib's default: at 0.5 "fast" suggested "auto"). A suggestion only: the callers still
    refuse ``name``. The one suggestion of the Python API (:func:`check_choice`) and of the command line
    (``python -m ldpcode``)."""
    import difflib

    def bare(text: str) -> str:
        return "".join(ch for ch in text.casefold() if ch.isalnum())

    known = list(known)
    if not isinstance(name, str) or len(name) > 200:  # no name is that long: nothing to suggest
        return None
    same = [k for k in known if bare(k) == bare(name)] if bare(name) else []
    close = same or difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return close[0] if close else None


def check_choice(name: str, value, known) -> str:
    """A name from a registry (``known``); else a one-line refusal that shows ``value`` cut to 160 characters
    (:func:`one_line`), lists the known names and suggests the closest (:func:`close_name`): ValueError, or TypeError
    for a value that is not a string. ``name`` says what is refused (``"policy"``, ``"instance"``)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, one of {sorted(known)}, got {one_line(value)}")
    if value not in known:
        close = close_name(value, known)
        hint = f" (did you mean {close!r}?)" if close else ""
        raise ValueError(f"unknown {name} {one_line(value)}; known: {', '.join(sorted(known))}{hint}")
    return value


def check_keywords(where: str, function, kwargs: dict, *, leave_out=()) -> None:
    """Refuse, before ``function(**kwargs)`` is called, a keyword it does not take or a required one left out, with a
    one-line TypeError naming ``where`` (the public call, e.g. ``make_instance('bernoulli')``) and the parameters it
    takes (``leave_out``: those the caller sets itself, never listed). Python's own message named the private helper
    ("_bernoulli() got an unexpected keyword argument 'sigma'"). The keywords are bound to the signature only: an
    error raised inside the call is never caught here."""
    import inspect

    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    params = [p for p in inspect.signature(function).parameters.values() if p.kind in kinds and p.name not in leave_out]
    names = [p.name for p in params]
    takes = ", ".join(names) if names else "no parameters"
    for key in kwargs:
        if key not in names:
            raise TypeError(f"{where}: unexpected parameter {key!r}; it takes: {takes}")
    missing = [p.name for p in params if p.default is inspect.Parameter.empty and p.name not in kwargs]
    if missing:
        raise TypeError(f"{where}: missing parameter {missing[0]!r}; it takes: {takes}")


def refuse_module_run(command: str) -> None:
    """What ``python -m ldpcode.<command>`` does (the modules ``rerun`` and ``sweep``): run alone, the module does
    nothing, so it says how to run it (``python -m ldpcode <command>``) and exits with status 2, argparse's status for
    a usage error, instead of exiting 0 silently."""
    import sys

    print(
        f"python -m ldpcode.{command}: error: run it as python -m ldpcode {command} "
        f"(see python -m ldpcode {command} --help)",
        file=sys.stderr,
    )
    raise SystemExit(2)
