"""The book writes a power of ten one way: 10⁶, 3.663·10⁻⁵, never Python's 1e+06 or 3.663e-05.

The reader sees a notebook's stored outputs (its printed lines, its tables, its check table); the report and the
horizons already wrote 10⁷, and the same page printed "T = 1e+07" beside it. This test reads every stored output
of every chapter notebook, so it runs in the fast tier without executing anything. A claim id is a name, not a
number: ``ratio.T1e6`` has a letter before its digits and is not read as a power."""

import json
import re
from pathlib import Path

import pytest

from ldpcode.claims.tables import format_value, format_number, power_of_ten

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "chapters").rglob("*.ipynb"))


def python_exponents(text: str) -> list:
    """Every number ``text`` writes with Python's exponent (``1e+06``, ``3.663e-05``, ``2.5E-3``), with some
    context; a number inside a name (``T1e6``, ``x1e-3``) is not one."""
    pat = re.compile(r"(?<![\w.])[0-9]+(?:\.[0-9]+)?[eE][-+]?[0-9]+(?![\w])")
    return [text[max(0, m.start() - 30) : m.end() + 5].replace("\n", " ") for m in pat.finditer(text)]


def _outputs(nb: Path):
    """(cell index, output text) of every stored output of ``nb``: streams, and every text/* representation."""
    for i, cell in enumerate(json.loads(nb.read_text())["cells"]):
        for out in cell.get("outputs", []):
            if "text" in out:
                yield i, "".join(out["text"])
            for mime, data in out.get("data", {}).items():
                if mime.startswith("text/"):
                    yield i, "".join(data)


def test_the_finder_finds_pythons_exponents_and_not_names():
    assert python_exponents("T = 1e+06, δ = 1e-06, 3.663e-05 and 2.5E-3") != []
    assert len(python_exponents("T = 1e+06, δ = 1e-06, 3.663e-05 and 2.5E-3")) == 4
    assert python_exponents("ren2020.figure1.ratio_B_UCB.eps2.T1e6, 10⁶, 3.663·10⁻⁵, x1e-3, 1e6x") == []


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "chapters")))
def test_no_stored_output_writes_pythons_exponent(nb):
    _assert_none(nb, _outputs, python_exponents, "Python exponents in the outputs (write 10⁶ with "
                 "ldp.claims.format_horizon or format_number)")  # fmt: skip


def _assert_none(nb, outputs, finder, what: str):
    """Fail with every hit of ``finder`` in the ``outputs`` of ``nb``, one line each with its cell."""
    found = [f"cell {i}: …{hit}…" for i, text in outputs(nb) for hit in finder(text)]
    assert not found, f"{len(found)} {what}:\n" + "\n".join(dict.fromkeys(found))


@pytest.mark.parametrize(
    "x, spec, text",
    [
        (1e-6, "g", "10⁻⁶"),
        (-1e-6, "g", "-10⁻⁶"),
        (2.5e-7, "g", "2.5·10⁻⁷"),
        (3.663128e-05, ".3e", "3.663·10⁻⁵"),
        (10**7, ".0e", "10⁷"),
        (2.0, ".0e", "2"),
        (1.0, ".2e", "1.00"),
        (0.0, ".1e", "0.0"),
        (0.25, "g", "0.25"),
        (1234567.0, "g", "1.23457·10⁶"),
        (float("inf"), "g", "inf"),
    ],
)
def test_format_number_writes_the_power_python_would_write_as_an_exponent(x, spec, text):
    assert format_number(x, spec) == text
    assert _value(text) == float(format(x, spec))  # the value format() rounded to, read back from the text


def _value(text: str) -> float:
    """The number a text of :func:`format_number` writes: ``"-2.5·10⁻⁷"`` -> -2.5e-07, ``"0.25"`` -> 0.25."""
    m = re.fullmatch(r"(-?)(?:([0-9.]+)·)?10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)", text)
    if not m:
        return float(text)
    exponent = int(m.group(3).translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")))
    return float(m.group(1) + (m.group(2) or "1")) * 10.0**exponent


@pytest.mark.parametrize("spec, error", [(">9.0e", ValueError), ("8.2e", ValueError), (3, TypeError)])
def test_format_number_refuses_a_width_and_a_spec_that_is_not_one(spec, error):
    with pytest.raises(error, match="spec"):
        format_number(1e-6, spec)


def test_the_table_number_format_writes_powers_of_ten():
    assert format_value(1e-12) == "10⁻¹²" and format_value(1.844e-4) == "0.0001844"
    assert format_value(3.663e-5) == "3.663·10⁻⁵"
    assert format_value(1.15e9) == "1.15·10⁹"
    assert format_value(2800.0) == "2,800"  # from 10³ to 10⁹: thousands separators, as before
    assert power_of_ten(1e-4) == "10⁻⁴" and power_of_ten(1.0) == "1" and power_of_ten(2000) == "2·10³"


def test_a_table_holding_a_billion_writes_all_its_large_numbers_as_powers_of_ten():
    """Before: Corollary 10's bound columns read 157,535,111 beside 1.15·10⁹; magnitudes compare at a glance only in
    one form. A "d" or "," column (a count, a horizon) keeps its separators, numbers below 10³ stay plain, and a
    table without a number of 10⁹ is as before."""
    from ldpcode.claims import Table

    rows = [[157535111.0, 2.5e8, 10**6], [1.15e9, 2800.0, 10**7], [450.0, 12.0, 5]]
    mixed = Table(["b", "c", "t"], rows, formats=[".3g", ".3g", ","])._cells()
    assert [r[0] for r in mixed] == ["1.58·10⁸", "1.15·10⁹", "450"]
    assert [r[1] for r in mixed] == ["2.5·10⁸", "2.8·10³", "12"]
    assert [r[2] for r in mixed] == ["1,000,000", "10,000,000", "5"]
    plain = Table(["b"], [[157535111.0], [2800.0]], formats=[".3g"])._cells()
    assert plain == [["157,535,111"], ["2,800"]]
    assert format_value(2800.0, 3, powers_from=1e3) == "2.8·10³"
    with pytest.raises(ValueError, match="zip"):  # a short row is refused, not cut to its length
        Table(["b", "c"], [[1.0], [2.0, 3.0]], formats=[".3g", ".3g"])._cells()


#: ASCII math a reader should not meet in a printed line or a table cell, as the prose writes it: a Greek name
#: as a word or with a subscript ("eps = 1", "Delta_a", "sigma", not the keyword "epsilon=" of a repr nor the
#: "ratio.eps2" or "heldp_beta" of an id), >= and <=, +- and +/-, sqrt(, an arrow ->, R^2; and a number of five or more digits without thousands
#: separators (214070.4, not 214,070.4; a year or a seed has four, and a string of arms such as 0100010000, an
#: action sequence, starts with 0); and a horizon that is a power of ten written out ("T = 1,000,000", not 10⁶ as
#: ldp.claims.format_horizon writes it; "T = 1,000" and "16,000" are as it writes them)
_ASCII_MATH = re.compile(
    r"(?<![\w.'\"/_-])(?:eps|epsilon|Delta|delta|sigma|mu|rho|kappa|alpha|theta|lambda|chi)(?![A-Za-z0-9(=~*-]| method)"
    r"|(?<![\w.'\"/_-])(?:eps|Delta|mu|kappa|theta)(?=[*~])"
    r"|>=|<=|\+-|\+/-|sqrt\(| -> |R\^2"
    r"|(?<![\d,.·\w⁰¹²³⁴⁵⁶⁷⁸⁹-])(?!0\d)\d{5,}(?:\.\d+)?(?![\d\w])"
    r"|\b[Tt] = (?:10,000|100,000|1(?:,000){2,})(?![\d\w]|,\d)"
)


def ascii_math(text: str) -> list:
    """Every piece of ASCII math in ``text`` (:data:`_ASCII_MATH`), with some context."""
    return [text[max(0, m.start() - 30) : m.end() + 10].replace("\n", " ") for m in _ASCII_MATH.finditer(text)]


def _read_outputs(nb: Path):
    """(cell index, text) of what a reader of ``nb`` reads: its printed lines (stdout; a warning or an error on
    stderr is the library's message, typed as a terminal user types the argument) and the text of its HTML
    tables, without their markup, TeX and code."""
    for i, cell in enumerate(json.loads(nb.read_text())["cells"]):
        for out in cell.get("outputs", []):
            if out.get("name") == "stdout":
                yield i, "".join(out["text"])
            html = "".join(out.get("data", {}).get("text/html", ""))
            if html:
                html = re.sub(r"<code.*?</code>|\\\(.*?\\\)|\\\[.*?\\\]", " ", html, flags=re.S)
                yield i, re.sub(r"<[^>]+>", " ", html.replace("<wbr>", ""))  # an id's line-break opportunity


def test_the_finder_finds_ascii_math_and_not_names():
    found = ascii_math(
        "eps = 1, Delta_a, sigma = 2, kappa* = 3, mu~ used, x >= 1, 3 +- 1, sqrt(T), a -> b, R^2, 214070.4"
    )
    assert len(found) == 11
    names = "ratio.eps2 heldp_beta ren2020.figure1.ratio_B_UCB.eps2.T1e6 Policy('DP-UCB', epsilon=1) delta-method 2020 214,070.4 0100010000 T = 1,000, t = 16,000, T = 10⁶ 10⁻¹²³⁴⁵"
    assert ascii_math(names) == []


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "chapters")))
def test_no_printed_line_or_table_writes_ascii_math(nb):
    _assert_none(nb, _read_outputs, ascii_math, "pieces of ASCII math in what the page shows (write ε, Δ, σ, ≥, ±, √ "
                 "as the prose does, and numbers with ldp.claims.format_value)")  # fmt: skip
