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
    found = [f"cell {i}: …{hit}…" for i, text in _outputs(nb) for hit in python_exponents(text)]
    assert not found, (
        f"{len(found)} Python exponents in the outputs (write 10⁶ with ldp.claims.format_horizon or "
        "format_number):\n" + "\n".join(dict.fromkeys(found))
    )


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
