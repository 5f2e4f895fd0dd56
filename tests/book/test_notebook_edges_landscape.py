"""The landscape chapter's notebook runs whole at its tiny parameters (the edges its rules accept);
see tests/notebook_edges.py."""

import pytest

from notebook_edges import notebooks, run_tiny

NOTEBOOKS = notebooks("landscape")


@pytest.mark.parametrize("path", NOTEBOOKS)
def test_the_body_runs_at_the_edges_the_rules_accept(path, tmp_path, monkeypatch):
    run_tiny(path, tmp_path, monkeypatch)
