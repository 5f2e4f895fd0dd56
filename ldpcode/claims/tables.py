"""Formatting for the claim tables: numbers and horizons as the book prints them, and the one table renderer.

:func:`format_horizon` writes a horizon (for text and tables; ``mathtext=True`` for a figure: the plotting code
and the notebooks' figures call it too), :func:`format_value` and :func:`format_pm` (value ± se) write numbers for a table;
``_text_table`` and ``_html_table`` render one as aligned text (for nbval and the terminal) and as HTML
(for the rendered book); :class:`Markup` marks a cell that is already HTML; :class:`Table` is a plain
table that prints both ways. ``_VERDICT_CLASS`` gives each verdict its CSS class.
"""

from __future__ import annotations

import html
import math
import numbers
import re
import unicodedata
from dataclasses import dataclass

from .._validate import check_int
from ..stats import mean_with_se

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _power(mantissa: str, exponent) -> str:
    """``mantissa``·10^``exponent`` as text with a superscript exponent: "10⁷", "3.2·10³", "10⁻⁶" (a mantissa of
    "1" or "" is left out). The one writer of such powers: horizons, report texts, decade columns."""
    e = str(int(exponent)).translate(_SUPERSCRIPT)
    return f"10{e}" if mantissa in ("", "1") else f"{mantissa}·10{e}"


_EXPONENT = re.compile(r"([+-]?)(\d+(?:\.\d*)?)e([+-]\d+)")


def format_number(x, spec: str = "g") -> str:
    """``format(x, spec)`` as the book prints it: an exponent Python would write (``1e-06``, ``3.663e-05``,
    ``1e+07``) becomes a power of ten (``10⁻⁶``, ``3.663·10⁻⁵``, ``10⁷``), and an exponent of 0 is left out
    (``format(2.0, ".0e")`` is ``2``). The mantissa keeps the digits ``spec`` asks for, so the value is the one
    ``format`` rounds to. For a number in a sentence or a table, whatever its size: ``format_number(delta)`` for
    δ = 10⁻⁶, ``format_number(c, ".3e")``; a width in ``spec`` is refused (pad the result instead)."""
    if not isinstance(spec, str):
        raise TypeError(f"spec must be a format spec such as 'g' or '.3e', got {spec!r}")
    if re.match(r"^(?:.?[<>=^])?[+ -]?#?0?[1-9]", spec):
        raise ValueError(f"spec {spec!r} has a width: pad the result instead (f'{{format_number(x):>9}}')")
    text = format(x, spec)
    m = _EXPONENT.fullmatch(text)
    if not m:
        return text
    sign, mantissa, exponent = m.groups()
    if int(exponent) == 0:
        return sign + mantissa
    return sign + _power(mantissa, exponent)


def format_horizon(t: int, *, mathtext: bool = False, caret: bool = False) -> str:
    """A horizon as the book writes it, the one formatter for text, tables and figures.

    For text and tables (the default), in unicode: ``10**6 -> '10⁶'``, ``2*10**5 -> '2·10⁵'``,
    ``16000 -> '16,000'``. For a figure's text (``mathtext=True``), typeset by matplotlib's mathtext: a power of
    ten ``-> '$10^{6}$'`` (shown 10⁶), any other number with thousands separators (``'16,000'``,
    ``2*10**5 -> '200,000'``). In plain ASCII (``caret=True``), as claim texts stored before the unicode form
    write it: a power of ten ``-> '10^6'``, any other number ``-> '16,000'``."""
    t = check_int("t", t, minimum=1)  # a float horizon was truncated ('10⁶' for 10**6 + 0.5); inf overflowed
    if mathtext or caret:
        k = math.log10(t)
        if abs(k - round(k)) >= 1e-12:
            return f"{t:,}"
        return f"$10^{{{round(k)}}}$" if mathtext else f"10^{round(k)}"
    t = int(t)
    e = len(str(t)) - 1
    mant = t / 10**e
    if e >= 4 and mant == int(mant):
        return _power(str(int(mant)), e)
    return f"{t:,}"


def approx_horizon(t: int) -> str:
    """A horizon to two significant digits, for ranges of t: 31022 -> '3.1·10⁴', 10**7 -> '10⁷', 455337 ->
    '4.6·10⁵', 999 -> '999'."""
    t = check_int("t", t, minimum=1)
    if t < 1000:
        return str(t)
    k = len(str(t)) - 1
    m = round(t / 10**k, 1)
    if m >= 10:
        m, k = 1.0, k + 1
    return _power(f"{m:g}", k)


def span_text(consistent, searched) -> str:
    """The words for a range of horizons: 't ≈ 3.1·10⁴–4.6·10⁵', 't ≈ 6.7·10⁶', or 'no t in [1000, 10⁷]' when
    ``consistent`` is empty (``searched`` is the range examined)."""
    if not consistent:
        return f"no t in [{approx_horizon(searched[0])}, {approx_horizon(searched[1])}]"
    a, b = consistent
    return f"t ≈ {approx_horizon(a)}" + ("" if a == b else f"–{approx_horizon(b)}")


def horizon_tag(t: int) -> str:
    """A horizon in a claim id: ``T1e6`` for 10^6; any other horizon written out (``T3000000``)."""
    t = check_int("t", t, minimum=1)
    k = round(math.log10(t))
    return f"T1e{k}" if t == 10**k else f"T{t}"


def heldp_setting_name(law: str, epsilon_min: float) -> str:
    """A setting (law of the users' levels, ε_min) of Ren et al. (2020b) as a title: ``'discrete, ε_min = 1'``."""
    if not isinstance(law, str):
        raise TypeError(f"law must be the name of a law of privacy levels, got {type(law).__name__}")
    return f"{law.removeprefix('ren-heldp-')}, ε_min = {epsilon_min:g}"


def policy_tag(name: str) -> str:
    """A policy's name in a claim id: ``'AdaP-KLUCB'`` -> ``'adap_klucb'`` (hyphens to underscores, lower case)."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty policy name (a str), got {name!r}")
    return name.replace("-", "_").lower()


def format_value(x, digits: int = 4, powers_from: float = 1e9) -> str:
    """A number for a table: 4 significant digits below 1000, whole numbers with thousands separators
    from 1000 to 10⁹, and below 10⁻³ as ``.4g`` writes it, with a power of ten for its exponent (``0.0001844``,
    ``3.663·10⁻⁵``, ``10⁻¹²``; :func:`format_number`), as from 10⁹ on (``1.15·10⁹``). ``powers_from=1e3`` writes
    powers of ten from 10³ on (in a table that holds a number of 10⁹ or more in a general-format column:
    :class:`Table`)."""
    if x is None:
        return "-"
    x = float(x)
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "0"
    if 1e3 <= abs(x) < powers_from:
        return f"{x:,.0f}"
    if x == int(x) and abs(x) < 1e3:
        return f"{int(x)}"
    if 1e-3 <= abs(x) < 1e3:
        text = f"{x:.{digits}g}"  # fewer digits than the whole part has: the rounded whole number, no exponent
        return f"{float(text):.0f}" if "e" in text else text
    return format_number(x, f".{digits}g")  # as below 10³: the digits without trailing zeros (10⁻⁴, 8.492·10⁻⁸)


_SENSE_TEXT = {"=": "", "<=": "≤ ", ">=": "≥ "}


def format_pm(value, se, sign: bool = False) -> str:
    """``value ± se`` with matching digits: the standard error to 2 significant digits and the value rounded
    to the same decimal place, with thousands separators (``34,480 ± 210``, ``0.959 ± 0.012``,
    ``1.1706742 ± 0.0000023``); below 10⁻³, from 10⁹ on, or from 10 on with a standard error below 10⁻⁶, both share
    one power of ten (``(1.600 ± 0.020)·10⁻⁵``). ``sign`` writes a leading +."""
    if value is None:
        return "-"
    value, plus = float(value), "+" if sign else ""
    if not se or not math.isfinite(value) or not math.isfinite(float(se)) or float(se) < 0:
        text = format_value(value) if not se else f"{format_value(value)} ± {se}"
        return (plus if value > 0 else "") + text
    se = float(f"{float(se):.2g}")
    last = math.floor(math.log10(se)) - 1  # the decimal place of the standard error's second digit
    top = max(abs(value), se)
    if 1e-3 <= top < 1e9 and last >= -6:
        d = max(0, -last)
        v = round(value, -last) if last > 0 else value
        return f"{v:{plus},.{d}f} ± {se:,.{d}f}"
    if 1e-3 <= top < 10:  # a tiny standard error on a plain number: every digit, no "(1.1706742 ± 0.0000023)·10⁰"
        return f"{value:{plus}.{-last}f} ± {se:.{-last}f}"
    e = math.floor(math.log10(top))
    d = max(0, e - last)
    power = "·10" + str(e).translate(_SUPERSCRIPT)
    return f"({value / 10**e:{plus}.{d}f} ± {se / 10**e:.{d}f}){power}"


def final_regret_text(result) -> str:
    """The mean regret of ``result`` (a :class:`~ldpcode.SimulationResult`) at its horizon with its standard error,
    to the digits the error allows (``"137,120 ± 440"``, :func:`format_pm`): as a table prints it, so that a legend
    and the table beside it agree."""
    return format_pm(*mean_with_se(result.final_regret()))


def _text_table(head, body, right=()) -> str:
    """Aligned text; the columns whose indices are in ``right`` (numbers) are right-aligned."""
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    pad = lambda x, j: str(x).rjust(widths[j]) if j in right else str(x).ljust(widths[j])  # noqa: E731
    line = lambda row: "  ".join(pad(x, j) for j, x in enumerate(row)).rstrip()  # noqa: E731
    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(r) for r in body])


_VERDICT_CLASS = {
    "agrees": "agree",
    "holds": "agree",
    "two ways agree": "agree",
    "near": "near",
    "holds within noise": "near",
    "failure shown": "disagree",
    "caught, as intended": "agree",
    "vacuous": "near",
    "disagrees": "disagree",
    "consistent at some t": "partial",
    "within the rate": "partial",
    "inconclusive": "near",
    "underdetermined": "near",
    "not judged": "plain",
    "VIOLATED": "fail",
    "TWO WAYS DIFFER": "fail",
    "reproducible": "plain",
}


def _cell(c) -> str:
    """A cell's HTML: a :class:`Markup` cell as it is, anything else escaped, with a short symbol's subscript as the
    prose writes it (``ε_t``, ``p_0``, ``ε_min``: :func:`_subscripts`), and a break opportunity after every other
    underscore, so that a name (``corollary4_one_point_bco``) wraps between its words, not inside one."""
    if isinstance(c, Markup):
        return c
    return _subscripts(html.escape(str(c))).replace("_", "_<wbr>")


def _subscripts(text: str) -> str:
    """The one-letter subscript of a short symbol (``Δ_a``, ``p_0``, ``max_a``; a superscript may follow, ``Δ_ε²``)
    and the min, max or inf of a one-letter symbol (``ε_min``: :func:`_min_max_inf`) as HTML subscripts; a longer
    name (``ldp.x_a``, ``eps_min``, ``corollary4_one_point``) stays as written."""
    text = re.sub(r"(?<![\w.])(\w{1,3})_(\w)(?![^\W¹²³])", r"\1<sub>\2</sub>", text)
    return _min_max_inf(text)


def _min_max_inf(text: str) -> str:
    """``ε_min``, ``d_inf``, ``T_max`` with their min, max or inf as an HTML subscript; a longer name (``heldp_min``),
    a longer word (``x_mine``) and a dotted name (``ldp.x_min``) stay as written."""
    return re.sub(r"(?<![\w.])([^\W\d_])_(min|max|inf)(?!\w)", r"\1<sub>\2</sub>", text)


def _header(h) -> str:
    """A column header's HTML: typed in ASCII for the terminal ("eps", "p_0", "E[N_a(T)]"), written as the prose
    writes it (ε, p₀ as p<sub>0</sub>, :func:`_prose`); inline math (``\\(T = 10^7\\)``) and a :class:`Markup` header
    are left as they are."""
    if isinstance(h, Markup):
        return h
    parts = re.split(r"(\\\(.*?\\\))", str(h))
    return "".join(_prose(p) if i % 2 == 0 else html.escape(p, quote=False) for i, p in enumerate(parts))


def _html_cells(row, classes=None) -> str:
    """The ``<td>`` cells of one row, each with its CSS class from ``classes`` (None or "" for none). In a column
    of numbers the standard error keeps its sign: a cell too narrow for ``21.68 ± 0.28`` breaks before the ±
    ("21.68" over "± 0.28"), never after it ("21.68 ±" over "0.28")."""
    classes = classes or [None] * len(row)
    return "".join(
        f"<td{f' class={k!r}' if k else ''}>{_num_cell(c) if k == 'num' else _cell(c)}</td>"
        for c, k in zip(row, classes, strict=True)
    )


def reading_on_its_line(paper: str) -> str:
    """The paper's number of a report row, escaped, with the book's reading beside it (``10 (read as ≥ 10)``:
    :func:`ldpcode.claims.statements.shown_as`) set on a line of its own, so that the column stays narrow."""
    printed, sep, reading = html.escape(paper).partition(" (read as ")
    return printed + (f"<span class='ldp-reading'>(read as {reading}</span>" if sep else "")


def _num_cell(c) -> str:
    """A cell of a column of numbers: :func:`_cell`, with a no-break space after each ±."""
    return _cell(c).replace(" ± ", " ±&nbsp;")


def _html_table(head, body, css: str, classes=None, right=()) -> str:
    """An HTML table; the headers of the columns whose indices are in ``right`` (columns of numbers, right-aligned
    by the book's CSS) are set over their numbers."""
    th = "".join(
        f"<th class='num'>{_header(h)}</th>" if j in right else f"<th>{_header(h)}</th>" for j, h in enumerate(head)
    )
    rows = "".join(f"<tr>{_html_cells(r, classes[i] if classes else None)}</tr>" for i, r in enumerate(body))
    return f"<table class='{css}'><thead><tr>{th}</tr></thead><tbody>{rows}</tbody></table>"


class Markup(str):
    """A table cell that is already HTML (a link)."""


def _mathjax(text: str) -> str:
    """A quote for HTML, its TeX as MathJax typesets it in a notebook's output: ``$$x$$`` as ``\\[x\\]`` and ``$x$``
    as ``\\(x\\)`` (the book's MathJax reads only those delimiters in outputs), the rest escaped; outside the
    math, ``x_{min}``, ``x_0`` and ``R^2`` (TeX-like text of an extraction) as HTML sub- and superscripts."""
    out = html.escape(text, quote=False)
    out = re.sub(r"\$\$(.+?)\$\$", lambda m: "\\[" + m.group(1) + "\\]", out, flags=re.S)
    out = re.sub(r"\$(.+?)\$", lambda m: "\\(" + m.group(1).strip() + "\\)", out, flags=re.S)
    # outside the math, a text extraction's TeX-like sub- and superscripts (ϵ_{min}, α_0, R^2) as HTML, not braces
    parts = re.split(r"(\\\(.*?\\\)|\\\[.*?\\\])", out, flags=re.S)
    return "".join(_sub_sup(p) if i % 2 == 0 else p for i, p in enumerate(parts))


def _sub_sup(text: str) -> str:
    """TeX-like sub- and superscripts of plain text (``ϵ_{min}``, ``α_0``, ``R^2``) as HTML ``<sub>``/``<sup>``; a
    name such as ``ratio_B_UCB`` or ``eps_min`` is left alone (the mark must end the word)."""
    for mark, tag in (("_", "sub"), (r"\^", "sup")):
        text = re.sub(rf"(?<=\w){mark}(?:\{{([^{{}}]*)\}}|(\w)(?!\w))", rf"<{tag}>\1\2</{tag}>", text)
    return text


def power_of_ten(x) -> str:
    """A table cell for a number on a decade grid (an ε of 10⁻⁴ to 1, a horizon of 10² to 10⁷): ``x`` to one
    significant digit, as ``format(x, ".0e")`` rounds it, written ``10⁻⁴``, ``2·10³``, and 1 to 9 without a power
    (``.0e`` wrote ``1e-04`` and ``1e+00``). A column format of :class:`Table`."""
    return format_number(float(x), ".0e")


#: the plain-ASCII math of claim texts (typed in f-strings, read in a terminal) and how the report's HTML writes it;
#: a Greek name only as a whole word outside a dotted name or an id ("eps = 1", "mu_a", not "ratio.eps2" or
#: "epsmin1"), "delta" not in "delta-method", and "x" as a product only beside a number ("10x", "20 runs x 5
#: arms", not the variable of "c_s x")
_GREEK = {
    "eps": "ε", "epsilon": "ε", "Delta": "Δ", "delta": "δ", "sigma": "σ", "alpha": "α", "beta": "β", "mu": "μ",
    "nu": "ν", "rho": "ρ", "kappa": "κ", "lambda": "λ", "theta": "θ", "tau": "τ", "chi": "χ", "pi": "π", "Phi": "Φ",
}  # fmt: skip
_GREEK_WORD = re.compile(r"(?<![\w.])(" + "|".join(_GREEK) + r")(?![A-Za-z0-9])(?!-method| method)")
_SYMBOLS = ((">=", "≥"), ("<=", "≤"), ("!=", "≠"), ("->", "→"), ("+/-", "±"), ("+-", "±"))
_TIMES = re.compile(r"(?<=[\d)])x(?=\s|\d)|(?<=\d) x (?=\w)|(?<=\w) x (?=\d)")


def _ascii_math(text: str) -> str:
    """A claim text's ASCII math as it reads: ``eps = 1`` as ε = 1, ``Delta_a`` as Δ_a, ``sqrt(k)`` as √(k),
    ``>=`` as ≥, ``eps -> inf`` as ε → ∞, ``10x`` and ``2 x 4`` as 10× and 2 × 4. Names, ids and code (``ratio.eps2``,
    ``heldp_beta``, ``delta-method``) are left alone, and so is every caret (:func:`_prose`)."""
    text = _GREEK_WORD.sub(lambda m: _GREEK[m.group(1)], text)
    text = re.sub(r"(?<![\w.])sqrt(?=\()", "√", text)
    for ascii_, sign in _SYMBOLS:
        text = text.replace(ascii_, sign)
    text = re.sub(r"(?<=→ )inf\b", "∞", text)
    return _TIMES.sub(lambda m: m.group(0).replace("x", "×"), text)


def _prose(text: str) -> str:
    """A claim's text (its source, note or reason) for HTML, escaped, with its powers of ten written one way: Python's
    "1e+07" and "3.2e+03" and the plain-text "10^7" as "10⁷" and "3.2·10³", as the report's other numbers are. The
    value is unchanged: the mantissa's digits are kept as written. A number inside a name (the "1e6" of
    ``ratio.T1e6``) and a fractional power of ten (``10^{3/4}``) are not powers of ten to rewrite. Any other caret
    is read only where its exponent says where it ends (:func:`_carets`): a rate written ``T^1/2`` must not read as
    a superscript 1.
    The ASCII math around the numbers (``eps``, ``Delta_a``, ``>=``) is written as the quotes and the pages write it
    (:func:`_ascii_math`), and the one-letter subscript of a short symbol (``Δ_a``, ``max_a``) and the min, max or inf
    of a one-letter symbol (``ε_min``, ``d_inf``) as a subscript. A whole number of five or more digits reads as the
    tables write it (``[10000, 1000000]`` as [10⁴, 10⁶], ``89125`` as 89,125), and ``R^2`` as R²."""
    out = html.escape(_ascii_math(text), quote=False)
    out = re.sub(r"(?<![\w.])(\d+(?:\.\d+)?)e([+-]?\d+)(?!\w|\.\d)", lambda m: _power(m.group(1), m.group(2)), out)
    ten = r"(?<![\w.])10\^(?:\{(-?\d+)\}|(-?\d+)(?![\w/{]|\.\d))"  # 10^7, 10^{-3}; not 10^{3/4} nor 10^1/2
    out = re.sub(ten, lambda m: _power("", m.group(1) or m.group(2)), out)
    out = re.sub(r"(?<![\w.,])(\d{5,})(?=(\.\d+)?(?![\w.,]\d|\w))", lambda m: _whole(m.group(1), m.group(2)), out)
    out = re.sub(r"(?<![\w.])R\^2(?!\w)", "R²", out)
    return _subscripts(_carets(out))


def _carets(text: str) -> str:
    """The exponents of an ASCII formula that say where they end, as HTML superscripts, and a tilde on a capital
    (``O~``, ``G~``, ``B_tilde``) as the letter with a tilde: ``Õ(T^3/4/ε)`` (a fraction exponent on the horizon
    T: a rate), ``t^(-1/3)`` and ``x^{1/2}`` (bracketed), ``(131/27)^2``, ``e^-Z``, ``2^-53``, ``e^2ε``, ``(ln T)^0.2``.
    An exponent that could end in two places (``v_a^2/2``, ``pi^2/3``: v²/2 or v^{2/2}?) stays a caret, and so does
    a tilde between spaces (``G ~ Gamma``: distributed as)."""
    tilde = lambda m: unicodedata.normalize("NFC", m.group(1) + "\u0303")  # noqa: E731 (Õ is one letter, G̃ two)
    text = re.sub(r"(?<![\w.])([A-Z])(?:~|_tilde)(?![A-Za-z0-9_~])", tilde, text)
    sup = lambda e: f"<sup>{e.replace('-', '−').replace('eps', 'ε')}</sup>"  # noqa: E731
    text = re.sub(r"\^[({]([^(){}]+)[)}]", lambda m: sup(m.group(1)), text)
    text = re.sub(r"(?<![\w.])T\^(\d+/\d+)", lambda m: "T" + sup(m.group(1)), text)
    exponent = r"\^(-?(?:\d+(?:\.\d+)?)?(?:[^\W\d_]+)?)(?![\w.]|/\d)"
    return re.sub(exponent, lambda m: sup(m.group(1)) if m.group(1) not in ("", "-") else m.group(0), text)


def _whole(digits: str, fraction) -> str:
    """The whole part of a number of five or more digits as the book writes it: a power of ten without a fraction
    as 10⁵, any other with thousands separators (89,125; 10,000.5); the fraction that follows is left as written."""
    if not fraction and digits == "1" + "0" * (len(digits) - 1):
        return _power("", len(digits) - 1)
    return f"{int(digits):,}"


def _id_html(claim_id: str) -> Markup:
    """A claim id for an HTML cell, with a line-break opportunity only after a dot that starts a new part (a
    letter follows it): a long id wraps between its parts (``ren2020.figure1.`` / ``ratio_B_UCB.eps2.T1e6``),
    never inside a part or a number (``gap0.1_eps0.5`` stays whole)."""
    parts = re.split(r"(?<=\.)(?=[A-Za-z])", claim_id)
    return Markup("<wbr>".join(html.escape(part) for part in parts))


def _html_two_line_table(head, body, details, css: str, classes=None) -> str:
    """A table whose rows are two lines: the columns of ``head`` (``body``), then one full-width line of the
    row's secondary fields, ``details[i]`` as ``(label, cell)`` pairs written ``label cell · label cell``.
    So a check table keeps its verdict on screen at 1280 px without a column for every field."""
    th = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    rows = []
    for i, r in enumerate(body):
        rows.append(f"<tr class='ldp-main'>{_html_cells(r, classes[i] if classes else None)}</tr>")
        parts = [
            f"<span class='ldp-field'><span class='ldp-label'>{html.escape(k)}</span> {_cell(v)}</span>"
            for k, v in details[i]
            if v not in ("", None)
        ]
        if parts:
            rows.append(f"<tr class='ldp-sub'><td colspan='{len(head)}'>" + " · ".join(parts) + "</td></tr>")
    return f"<table class='{css}'><thead><tr>{th}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _format_cell(x, spec, powers_from: float = 1e9) -> str:
    """One cell of a column with a number format ``spec``: a format spec such as ``".4g"``, ``",.0f"``,
    ``"+.3f"`` (or a tuple of them, one per part of a tuple cell) or a callable. A str cell is kept as it
    is, ``None`` becomes ``"-"`` and a tuple ``(value, se)`` of numbers is written ``"value ± se"`` by
    :func:`format_pm`, digits matched to the standard error. A ``g`` spec writes the book's one number
    format (:func:`format_value`): thousands separators, no exponent between 10⁻³ and 10⁹."""
    if isinstance(x, str):
        return x
    if x is None:
        return "-"
    if isinstance(x, tuple):
        if len(x) == 2 and not callable(spec) and all(_is_number(v) for v in x):
            # (value, se): the book's one way, digits matched to the standard error
            first = spec[0] if isinstance(spec, tuple) else spec
            return format_pm(x[0], x[1], sign=str(first).startswith("+"))
        specs = spec if isinstance(spec, tuple) else (spec,) * len(x)
        return " ± ".join(_format_cell(v, s) for v, s in zip(x, specs, strict=True))
    if callable(spec):
        return spec(x)
    general = _GENERAL.fullmatch(spec) if _is_number(x) else None
    if general:  # ".4g" and the like: thousands separators, and no exponent between 10^-3 and 10^9
        text = format_value(x, int(general.group(2) or 6), powers_from)
        return ("+" if general.group(1) and float(x) > 0 else "") + text
    if _is_number(x) and spec.endswith(("e", "E")):  # ".2e": a power of ten, 9.60·10⁻⁵
        return format_number(x, spec.replace("E", "e"))
    if _is_number(x):  # ".1f", "d": thousands separators from 10³ on, as format_value writes them
        spec = _FIXED.sub(lambda m: m.group(1) + "," + m.group(2), spec)
    return format(x, spec)


def _is_number(x) -> bool:
    """A real number, NumPy's scalars included (np.int64 is not an int; NumPy registers it as numbers.Real), a
    bool not."""
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


_GENERAL = re.compile(r"([+]?),?\.?(\d*)g")
#: a text cell that is one number (1,000,000, -0.25, 3.2·10⁻⁵, 10⁶, inf): its HTML cell never breaks inside it (CSS
#: class ``nb``), where a cell of words may break anywhere
_NUMBER_TEXT = re.compile(r"[-+−]?(?:\d[\d,]*(?:\.\d+)?(?:·10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?|10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+|inf)%?")
#: a text cell that is one short word (VIOLATION, AdaP-KLUCB): it never breaks inside either (a narrow column read
#: "VIOLATIO / N"); a longer one (a notebook's file name) may still break rather than overflow
_SHORT_WORD = re.compile(r"\S{1,12}")
#: a fixed-point or integer spec without a grouping option (".1f", "+.3f", "d"); the comma goes before the precision
_FIXED = re.compile(r"^([^,_]*?)((?:\.\d+)?[fFd%])$")


@dataclass
class Table:
    """A plain table: aligned text for nbval and the terminal, HTML for the rendered book.

    ``formats`` (optional) gives each column a number format: ``None`` keeps the cells as they are
    (``str``), a format spec (``".4g"``, ``",.0f"``, ``"+.3f"``), a tuple of specs for cells that are
    ``(value, se)`` tuples (written ``"value ± se"``), or a callable. Columns with a format are
    right-aligned, in the text and in the HTML (CSS class ``num``).
    """

    head: list
    body: list
    formats: list | None = None
    #: typeset the ``$…$`` of text cells and headers with MathJax in the rendered book (:func:`_mathjax`)
    math: bool = False

    def __post_init__(self):
        if self.formats is not None and len(self.formats) != len(self.head):
            raise ValueError(f"formats has {len(self.formats)} entries for {len(self.head)} columns")

    def _cells(self) -> list:
        if self.formats is None:
            return self.body
        # a table with a number of 10⁹ or more in a "g" column writes the numbers of all its "g" columns from 10³ on
        # as powers of ten: not 157,535,111 beside 1.15·10⁹ (a "d" or "," column, a count or a horizon, keeps its
        # thousands separators)
        general = [j for j, spec in enumerate(self.formats) if isinstance(spec, str) and _GENERAL.fullmatch(spec)]
        big = any(
            j < len(row) and _is_number(row[j]) and abs(float(row[j])) >= 1e9 for row in self.body for j in general
        )
        return [
            [
                x if spec is None else _format_cell(x, spec, 1e3 if big else 1e9)
                for x, spec in zip(row, self.formats, strict=True)
            ]
            for row in self.body
        ]

    def _numeric(self) -> set:
        return {j for j, spec in enumerate(self.formats or ()) if spec is not None}

    def __repr__(self) -> str:
        return _text_table(self.head, self._cells(), self._numeric())

    def _repr_html_(self) -> str:
        num = self._numeric()
        body, head = self._cells(), self.head
        if self.math:
            tex = lambda c: Markup(_mathjax(c)) if isinstance(c, str) and not isinstance(c, Markup) else c  # noqa: E731
            body, head = [[tex(c) for c in row] for row in body], [tex(h) for h in head]
        classes = [
            [
                "num" if j in num else "nb" if _NUMBER_TEXT.fullmatch(str(c)) or _SHORT_WORD.fullmatch(str(c)) else ""
                for j, c in enumerate(r)
            ]
            for r in body
        ]
        table = _html_table(
            head, body, "ldp-table", classes if any(any(r) for r in classes) else None, num if body else ()
        )
        return f"<div class='mathjax_process'>{table}</div>" if self.math else table
