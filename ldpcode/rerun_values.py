"""How ``python -m ldpcode rerun`` reads a value given on the command line (``-p NAME VALUE``): as YAML, safely.

``-p horizon 100000`` is an int, ``-p epsilons "[0.5, 1.0]"`` a list, ``-p policy LDP-UCB-B`` a string,
``1e6`` (a string to YAML 1.1) the float 1e6, ``None`` or ``null`` None, ``true``/``false`` bools but ``yes``, ``no``,
``on`` and ``off`` the words typed (YAML 1.1 reads them as bools: ``-p seed yes`` was refused as "got True"). Refused before anything reads them: an
integer YAML 1.1 would read in another base (``010``, ``0x100``, ``0b11``, ``1:40``), a value of more than
:data:`MAX_ITEMS` items, a number beyond the doubles (``1e-400`` is 0.0), and, for an integer parameter, a
number written with more digits than a double holds (``2.0000000000000001`` and ``9007199254740993.0`` are 2 and
9007199254740992 as doubles: a seed or a horizon silently other than the one typed). Where the notebook's default
is an integer, a whole float is that integer (:func:`as_default_type`: ``-p horizon 1e6`` is 1000000), and a whole
double its text does not write exactly is refused there, and so is one beyond 2**53 (``-p seed 1e20``: a double cannot
hold every integer there; write the integer).
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation

MAX_ITEMS = 10**5
"""The most numbers, strings and containers one command-line value may hold, counted as its text would be
expanded (YAML's aliases repeat a node without repeating its text)."""


#: an integer as a reader writes it in decimal: YAML 1.1 (PyYAML's safe loader) also reads ``010`` as 8 (octal),
#: ``0x100`` as 256, ``0b11`` as 3 and ``1:40`` as 100 (base 60), plausible wrong numbers: those are refused
_DECIMAL_INT = re.compile(r"[-+]?(?:0|[1-9][0-9_]*)")


class _Unread(ValueError):
    """A scalar that YAML 1.1 would read as a number other than the one a reader means (:data:`_DECIMAL_INT`)."""


def _loader():
    """PyYAML's safe loader, refusing the integers and floats YAML 1.1 reads otherwise than YAML 1.2's core schema
    or Python would (octal ``010``, ``0x``/``0o``/``0b`` prefixes, base-60 ``1:40``)."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    def integer(loader, node):
        if not _DECIMAL_INT.fullmatch(node.value):
            raise _Unread(node.value)
        return yaml.SafeLoader.construct_yaml_int(loader, node)

    def real(loader, node):
        if ":" in node.value:  # 1:30.5 is 90.5 in YAML 1.1
            raise _Unread(node.value)
        return _exact(node.value, yaml.SafeLoader.construct_yaml_float(loader, node))

    def boolean(loader, node):  # YAML 1.1's yes/no/on/off/y/n stay the words typed: only true and false are bools
        word = node.value.lower()
        return word == "true" if word in ("true", "false") else node.value

    Loader.add_constructor("tag:yaml.org,2002:int", integer)
    Loader.add_constructor("tag:yaml.org,2002:float", real)
    Loader.add_constructor("tag:yaml.org,2002:bool", boolean)
    return Loader


def parse_value(text: str, name: str | None = None):
    """A command-line value read as YAML (safe loader): ``100000`` → int, ``0.5`` → float, ``[0.1, 1]`` → list,
    ``true`` → bool, ``1e6`` (which YAML 1.1 reads as a string) → 1e6 the float (inside a list too), ``None`` (a
    string in YAML, None in papermill's ``-p``) or ``null`` → None, anything else the string itself. A value of more
    than :data:`MAX_ITEMS` items is refused (ValueError) before it is formatted, and so is an integer written with a
    leading zero, a ``0x``/``0o``/``0b`` prefix or a base-60 colon (YAML 1.1 reads ``010`` as 8 and ``1:40`` as 100;
    ``name``, the parameter, is named in the refusal)."""
    import yaml

    if not isinstance(text, str):
        raise TypeError(f"a parameter value from the command line must be a string, got {type(text).__name__}")
    try:
        value = yaml.load(text, Loader=_loader())  # noqa: S506 (a SafeLoader)
    except yaml.YAMLError:
        return text
    except _Inexact as err:
        who = f"parameter {name!r}" if name else "a parameter"
        raise ValueError(f"{who}: {err}") from None
    except _Unread as err:
        who = f"parameter {name!r}" if name else "a parameter"
        raise ValueError(
            f"{who}: {str(err)[:40]!r} in {text[:60]!r} is not a decimal number (YAML 1.1 would read a leading zero "
            "as octal, 0x/0o/0b as another base and a colon as base 60); write it in decimal, e.g. 8 or 100"
        ) from None
    try:
        if isinstance(value, str):
            if value.strip() == "None":  # as papermill's -p reads it: a parameter's default of None
                return None
            return _number_or_text(value)
        _count_items(value, text)
        return _numbers_inside(value)
    except _Inexact as err:
        raise ValueError(f"parameter {name!r}: {err}" if name else str(err)) from None


def _number_or_text(text: str):
    """``"1e-3"`` (a float YAML 1.1 reads as a string: no decimal point) → 0.001; any other string stays itself, and so
    do ``inf`` and ``nan`` (the rules refuse them, by the text the reader typed)."""
    try:
        number = float(text)
    except ValueError:
        return text
    number = _exact(text, number)
    return number if text.strip().lower() not in ("inf", "nan", "infinity", "-inf", "+inf", "-infinity") else text


def _numbers_inside(value):
    """The items of a list (and the values of a mapping) read as :func:`_number_or_text` reads a single value:
    ``[1e-3, 1]`` is [0.001, 1], as ``-p epsilon 1e-3`` is 0.001."""
    if isinstance(value, list):
        return [_numbers_inside(v) for v in value]
    if isinstance(value, dict):
        return {k: _numbers_inside(v) for k, v in value.items()}
    return _number_or_text(value) if isinstance(value, str) else value


def _count_items(value, text: str) -> None:
    """Refuse a value whose expansion holds more than :data:`MAX_ITEMS` items; stops counting at the limit."""
    stack, seen = [value], 0
    while stack:
        item = stack.pop()
        seen += 1
        if seen > MAX_ITEMS:
            raise ValueError(
                f"the value {text[:40]!r}{'...' if len(text) > 40 else ''} expands to more than {MAX_ITEMS:,} items; "
                "a notebook parameter is a number, a string or a short list"
            )
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)


class _Inexact(ValueError):
    """A number typed beyond the doubles (``1e-400`` reads as 0.0)."""


class _Rounded(float):
    """A whole double that its text does not write exactly (``2.0000000000000001`` reads as 2.0): fine for a real
    parameter, refused where an integer parameter would take it (:func:`as_default_type`)."""

    text: str


def _exact(text: str, number: float) -> float:
    """``number``, the double ``text`` reads as; refused (:class:`_Inexact`) when ``text`` is a finite, non-zero
    number beyond the doubles; a :class:`_Rounded` when it is a whole double that ``text`` does not write exactly
    (``9007199254740993.0``), for :func:`as_default_type` to refuse where an integer would take it."""
    try:
        typed = Decimal(text.strip().replace("_", ""))
    except InvalidOperation:
        return number
    if typed.is_finite() and typed != 0 and (number == 0 or math.isinf(number)):  # "got 0.0" for 1e-400 named no typo
        raise _Inexact(f"{text.strip()[:40]!r} is beyond the doubles (it reads as {number!r})")
    if typed.is_finite() and abs(number) <= 2**53 and number.is_integer() and typed != Decimal(number):
        rounded = _Rounded(number)
        rounded.text = text.strip()[:40]
        return rounded
    return number


def as_default_type(value, default, name: str = ""):
    """``value`` with its whole floats made integers where the notebook's ``default`` is an integer (or a list of
    them): ``1e6`` for a horizon is 1000000; a float its text does not write exactly is refused there
    (``-p seed 2.0000000000000001`` ran with seed 2). Anything else is returned unchanged, for the rules to judge
    (never walked: a YAML alias bomb is the rules' to cut short)."""

    def is_int(x):
        return isinstance(x, int) and not isinstance(x, bool)

    def whole(x):  # beyond 2**53 too, where integer() refuses it in its own words
        return isinstance(x, float) and x.is_integer()

    def integer(x):
        if isinstance(x, _Rounded):
            raise ValueError(
                f"parameter {name!r}: {x.text!r} is not exactly a number a double holds (it reads as {float(x):.17g}); "
                "write an integer exactly, or fewer digits"
            )
        if abs(x) > 2**53:  # 1e16 + 1 reads as 1e16; the rules' hint "write 10**6 or 1000000, not 1e6" gave no reason
            digits = str(int(Decimal(repr(x))))  # the number as written: 1e23, not its double 99999999999999991611392
            example = f", e.g. {digits}" if len(digits) <= 40 else ""
            raise TypeError(  # as the rules refuse a float for an integer
                f"parameter {name} must be {'an integer' if is_int(default) else 'a list of integers'}: {x!r} is a "
                "float beyond 2**53, where a double cannot hold every integer exactly (1e23 reads as "
                f"99999999999999991611392); write it as an integer{example}"
            )
        return int(x)

    if is_int(default) and whole(value):
        return integer(value)
    if isinstance(default, (list, tuple)) and default and all(is_int(d) for d in default):
        if isinstance(value, (list, tuple)) and all(is_int(v) or whole(v) for v in value):
            return type(value)(integer(v) if whole(v) else v for v in value)
    return value  # a _Rounded elsewhere is its double, a float (papermill writes it as such)
