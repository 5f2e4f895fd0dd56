"""The landscape chapter's notebook runs whole at its tiny parameters (the edges its rules accept);
see tests/notebook_edges.py."""

import pytest

from notebook_edges import notebooks, run_tiny

NOTEBOOKS = notebooks("landscape")


@pytest.mark.parametrize("path", NOTEBOOKS)
def test_the_body_runs_at_the_edges_the_rules_accept(path, tmp_path, monkeypatch):
    run_tiny(path, tmp_path, monkeypatch)


def test_the_shell_runner_reports_the_failing_cell_and_the_outputs(tmp_path):
    """The in-process runner of the edge runs: the tiny values replace the parameters cell's, the outputs
    (printed and displayed) are read, and the first failing cell is named with its error."""
    import nbformat

    from notebook_edges import _run_in_shell

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# a page"),
        nbformat.v4.new_code_cell("runs = 50", metadata={"tags": ["parameters"]}),
        nbformat.v4.new_code_cell("print(f'runs = {runs}')\ndisplay(3 * 7)"),
        nbformat.v4.new_code_cell("1 / (runs - 1)"),
        nbformat.v4.new_code_cell("print('not reached')"),
    ]
    path = tmp_path / "edge.ipynb"
    nbformat.write(nb, path)
    failure, text = _run_in_shell(path, {"runs": 1})
    assert failure == "cell 3: ZeroDivisionError: division by zero"
    assert "runs = 1" in text and "21" in text and "not reached" not in text
    failure, text = _run_in_shell(path, {"runs": 2})
    assert failure is None and text == "runs = 2\nOut[0]: 1.0\nnot reached\n\n21"  # printed, then displayed
    # a shell that other code made, with cells in its history, is set aside: the run starts at Out[0] again, and
    # the other shell is the instance again afterwards. (The prompt numbers are IPython 9's: 8.12, which CI's
    # system Python carried until requirements.txt pinned ipython, prints Out[1] for the same first cell.)
    from IPython.core.interactiveshell import InteractiveShell

    other = InteractiveShell.instance()
    try:
        other.run_cell("x = 1", store_history=True)
        assert _run_in_shell(path, {"runs": 2}) == (None, text)
        assert InteractiveShell.instance() is other and other.user_ns["x"] == 1
    finally:
        InteractiveShell.clear_instance()
