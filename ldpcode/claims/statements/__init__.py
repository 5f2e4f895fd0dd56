"""What the papers print: one :class:`Statement` per sentence, table cell or figure caption that a claim is
judged against, quoted verbatim with its locator and its category.

A claim that carries a paper's number names its statement (``statement="ren2020ldp.fig1a.ratios_eps2"``);
the claim copies the statement's ``quote``, ``locator`` and ``category`` into ``data/`` so that the report can
show them and :func:`ldpcode.claims.check` can guard them. Several claims may judge one statement (the
unbiasedness of g at six levels is one statement, not six): the report counts statements.

The categories (``CATEGORIES``):

``printed result``
    An empirical number or ordering the paper reports (a ratio read off a figure, an R²). Its quote contains
    the printed number (``printed``).
``printed constant``
    A formula or constant the paper prints, evaluated at the experiment's values (a theoretical factor, a
    threshold, a table cell).
``identity``
    A property of a mechanism or estimator that the paper states (unbiasedness, a noise scale, a privacy
    level).
``order``
    A rate (``O(T^{3/4}/ε)``, ``Õ(√T)``), judged on a local exponent with the allowance its log factors give
    (``log_factors``: the power of log T the paper's bound carries; None when the Õ hides an unstated power).
``scope``
    A statement about bounds or the worst case. It is shown with what the book measured, never judged as an
    empirical claim.

The quotes are checked against the paper texts by ``tests/book/test_statements.py`` (verbatim after
whitespace and markup normalisation); the book itself does not read the paper texts.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

CATEGORIES = ("printed result", "printed constant", "identity", "order", "scope")
#: the papers' files under ``../shared/papers`` (used by the tests only)
PAPER_FILES = {
    "ren2020ldp": ("ren2020-ldp-mab.md", "ren2020-ldp-mab.alt-extraction.txt"),
    "ren2020heldp": ("ren-heldp-mab.txt",),
    "azize2022privacy": ("azize2022-global-dp-bandits.txt",),
    "zheng2020locally": ("zheng2020-ldp-contextual-bandits.txt",),
}


@dataclass(frozen=True)
class Statement:
    """One thing a paper prints.

    ``key``: ``"<paper key>.<short name>"``, unique; ``cites``: the paper (a key of ``PAPERS``);
    ``locator``: where (section, figure, table, equation or line: "Section 4, Figure 1(a)");
    ``quote``: the paper's words, verbatim, long enough to find (an ellipsis ``...`` may join two verbatim
    pieces of one passage, never change its meaning); ``category``: one of ``CATEGORIES``; ``printed``: the
    number as the paper prints it ("1.6"), which a ``printed result`` quote contains; ``horizon``: the T the
    paper states for it, None if it states none; ``runs``: the paper's own number of independent runs,
    where it says (its Monte Carlo error then counts in the verdict); ``log_factors``: for an ``order``
    statement, the power of log T its bound carries (None: unstated); ``note``: what a reader should know
    (what an ellipsis drops, how the quote is read)."""

    key: str
    cites: str
    locator: str
    quote: str
    category: str
    printed: str = ""
    horizon: int | None = None
    runs: int | None = None
    log_factors: float | None = None
    note: str = ""

    def __post_init__(self):
        name = self.key
        if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9]+\.[A-Za-z0-9_.\-]+", name):
            raise ValueError(f"statement key must be '<paper key>.<name>' without spaces, got {name!r}")
        if self.cites not in PAPER_FILES or not name.startswith(self.cites + "."):
            raise ValueError(f"{name}: cites must be one of {', '.join(PAPER_FILES)} and prefix the key")
        if self.category not in CATEGORIES:
            raise ValueError(f"{name}: category must be one of {', '.join(CATEGORIES)}, got {self.category!r}")
        for text in ("locator", "quote"):
            if not isinstance(getattr(self, text), str) or len(getattr(self, text).strip()) < 3:
                raise ValueError(f"{name}: {text} must say where and what the paper prints")
        if self.category == "printed result" and not self.printed:
            raise ValueError(f"{name}: a printed result gives the number as printed (printed=...)")
        if self.printed and normalise(self.printed) not in normalise(self.quote):
            raise ValueError(f"{name}: the quote does not contain the printed number {self.printed!r}")
        for num in ("horizon", "runs"):
            v = getattr(self, num)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
                raise ValueError(f"{name}: {num} must be a positive integer or None, got {v!r}")


def normalise(text: str) -> str:
    """Text for comparing a quote with a paper: Unicode NFKC, markup (``*``, ``_``, backticks, ``$``, braces,
    backslashes) dropped, runs of whitespace as one space, lower case."""
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"[*_`$\\{}]", "", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def _registry() -> dict:
    from . import azize2022privacy, ren2020heldp, ren2020ldp, zheng2020locally

    out: dict = {}
    for module in (ren2020ldp, ren2020heldp, azize2022privacy, zheng2020locally):
        for s in module.STATEMENTS:
            if s.key in out:
                raise ValueError(f"statement key {s.key!r} is defined twice")
            out[s.key] = s
    return out


def get(key: str) -> Statement:
    """The statement ``key``; a ValueError names the closest keys when there is none."""
    import difflib

    reg = STATEMENTS
    if not isinstance(key, str) or key not in reg:
        close = difflib.get_close_matches(str(key), list(reg), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ValueError(f"no paper statement {key!r} in ldpcode.claims.statements{hint}")
    return reg[key]


def printed_value(key: str) -> float:
    """The number statement ``key`` prints (its ``printed`` field, "0.9977" -> 0.9977): what a notebook passes as a
    claim's ``paper=``, read from the registry beside its quote, so that no parameter of a reader's re-run can put
    another number under the paper's name."""
    text = get(key).printed
    if not text:
        raise ValueError(f"statement {key!r} prints no number (its printed field is empty)")
    try:
        return float(text.replace(",", ""))
    except ValueError:
        raise ValueError(f"statement {key!r} prints {text!r}, not one number") from None


STATEMENTS: dict = _registry()

_NUMBER = re.compile(r"(?<![\d.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")


def numbers_in(text: str) -> list[float]:
    """The numbers written in ``text`` after :func:`normalise`: ``1.6``, ``9.0``, ``1,000,000``; ``10^7`` gives
    10 and 7 (a power is not read as its value)."""
    return [float(m.replace(",", "")) for m in _NUMBER.findall(normalise(text))]


def prints(category: str, quote: str, printed: str, value: float) -> bool:
    """Whether the paper prints ``value`` itself, so that a table may show it under the paper's name.

    A ``printed result`` prints the number of its ``printed`` field (``"10 times"`` prints 10; ``"lowest
    regret followed by AdaP-UCB"`` prints none: the book's difference >= 0 is its reading); a ``printed
    constant`` prints a number of its quote (``= 1.7``; a formula such as Table 2's cell, evaluated at the
    experiment's values, is the book's evaluation, not a printed number). An ``identity`` (a ratio of 1 to a
    stated property), an ``order`` (an exponent read off a rate) and a ``scope`` statement print none: their
    numbers are the book's readings."""
    return written_as(category, quote, printed, value) is not None


#: a sign of inequality written just before a number (after :func:`normalise`: ``\geq`` is ``geq``, ``\ge`` is ``ge``)
_SIGN_BEFORE = re.compile(r"(?<![a-z])(geqslant|geq|ge|leqslant|leq|le)\s*$|(≥|>=|>|≤|<=|<)\s*$")
#: words that name a part of a paper: the number after them is a label ("Table 2", "Lemma 7"), not a value
_LABEL_WORD = re.compile(
    r"(?<![a-z])(table|lemma|theorem|figure|fig\.|section|sec\.|eq\.|equation|corollary|algorithm|appendix|step|line|"
    r"agent|example|proposition|definition|assumption|remark|chapter|part)\s*\(?$"
)
#: superscript digits, which NFKC (:func:`normalise`) would glue to the digits before them ("10⁷" -> "107")
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"
_SUPERSCRIPT = str.maketrans(_SUPERSCRIPTS, "0123456789-")


def _sign_before(text: str):
    """``">="``, ``"<="`` or None: the sign of inequality written just before the end of ``text``."""
    m = _SIGN_BEFORE.search(text)
    if m is None:
        return None
    return ">=" if (m.group(1) or m.group(2)) in ("geqslant", "geq", "ge", "≥", ">=", ">") else "<="


def _notation(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` (normalised) is part of the notation, not a value the paper prints:
    an index or a coefficient glued to a symbol (``t_4``, ``frac{4}{epsilon}``), an exponent or a power's base
    (``10^7``, ``^2``), a term of a sum or a difference (``K - 1``, ``1 + x``), a fraction's part (``3/4``), a
    label (``Table 2``, ``Lemma 7``); a number written right after a sign of inequality (``geq0.0765``) is a value."""
    head, tail = text[:start], text[end:]
    if _sign_before(head) is not None:
        return False
    if tail[:1] in ("^", "/") or head[-1:] in ("^", "/", ".") or head[-1:].isalpha() or _LABEL_WORD.search(head):
        return True
    if tail.lstrip()[:1] in ("+", "-", "−", "*", "/"):
        return True  # a term followed by an operator: the 1 of "1 + x"
    stripped = head.rstrip()
    word = re.search(r"[a-z]*$", stripped[:-1].rstrip()).group()  # "of -0.5": a word before a sign, not a symbol
    term = stripped[:-1].rstrip()[-1:]  # what the + or - follows: a symbol or a number makes it an operator
    return stripped[-1:] in ("+", "-", "−") and len(word) < 2 and (term.isalnum() or term in (")", "^"))


def written_as(category: str, quote: str, printed: str, value: float) -> tuple[str, str] | None:
    """How the paper writes ``value`` where it prints it (:func:`prints`): its digits as printed (``"9.0"``, not
    the ``9`` a table would write) and the sense it prints beside them (``">="`` for Lemma 7's ``\\geq 0.0765``,
    ``"="`` for a bare number, as in "10 times lower regret"), or None where it prints no such number. A number of the
    notation (:func:`_notation`: the 4 of ``t_4``, the 2 of ``x^2``) is not a printed value; a minus sign before a
    number is its sign (``−0.5`` prints -0.5, not 0.5)."""
    text = printed if category == "printed result" else quote if category == "printed constant" else ""
    text = normalise(re.sub(f"[{_SUPERSCRIPTS}]+", lambda m: "^" + m.group().translate(_SUPERSCRIPT), text))
    for m in _NUMBER.finditer(text):
        if _notation(text, m.start(), m.end()):
            continue
        minus = text[m.start() - 1 : m.start()] in ("-", "−")  # a printed negative number (not a term: _notation)
        written = float(m.group().replace(",", "")) * (-1 if minus else 1)
        if abs(written - value) <= 1e-9 * max(1.0, abs(value)):
            return text[m.start() - minus : m.end()], _sign_before(text[: m.start() - minus]) or "="
    return None


def shown_as(category: str, quote: str, printed: str, value: float, sense: str) -> str:
    """The paper's number ``value``, judged in ``sense``, as a table shows it under the paper's name: as the paper
    writes it where it prints it (``9.0``; ``≥ 0.0765`` for Lemma 7's printed inequality), with the book's reading
    beside it where that differs (``10 (read as ≥ 10)`` for "10 times lower regret", ``≥ 0.2066 (read as =
    0.2066)`` for a printed bound the book computes as a value); ``read as = 1`` where the paper prints no such
    number and the value is the book's reading of the statement (:func:`written_as`)."""
    from ..tables import _SENSE_TEXT, format_value

    written = written_as(category, quote, printed, value)
    if written is None:
        text = _SENSE_TEXT[sense] + format_value(value)
        return "read as " + (text if sense != "=" else "= " + text)
    digits, printed_sense = written
    shown = _SENSE_TEXT[printed_sense] + digits
    return shown if printed_sense == sense else f"{shown} (read as {_SENSE_TEXT[sense] or '= '}{digits})"


def found(quote: str, text: str) -> bool:
    """Whether ``quote`` is in ``text`` verbatim after :func:`normalise`; an ellipsis (``...`` or ``…``) joins
    pieces that must each be found, in order."""
    return _found_normalised(quote, normalise(text))


def _found_normalised(quote: str, hay: str) -> bool:
    at = 0
    for piece in re.split(r"\.\.\.|…", quote):
        piece = normalise(piece)
        if not piece:
            continue
        i = hay.find(piece, at)
        if i < 0:
            return False
        at = i + len(piece)
    return True


def problems(papers_dir) -> list[str]:
    """Every statement whose quote is not found verbatim in its paper's text under ``papers_dir`` (the shared
    ``papers/`` folder), one line each; empty when all are found."""
    from pathlib import Path

    texts = {k: [normalise((Path(papers_dir) / f).read_text()) for f in files] for k, files in PAPER_FILES.items()}
    out = []
    for s in STATEMENTS.values():
        if not any(_found_normalised(s.quote, hay) for hay in texts[s.cites]):
            out.append(f"{s.key}: quote not found in {', '.join(PAPER_FILES[s.cites])}: {s.quote[:80]!r}")
    return out
