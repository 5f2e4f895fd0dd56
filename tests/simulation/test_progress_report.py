"""The progress of a re-run's simulations (ldpcode.limits.PROGRESS_FILE_ENV): run_pool reports each finished run to
the file the variable names, and ProgressFileBar draws the latest call's runs on the reader's terminal."""

import io
import os
import time

import ldpcode as ldp
from ldpcode import limits


def test_run_pool_reports_its_start_and_each_finished_run_to_the_file(tmp_path, monkeypatch):
    path = tmp_path / "progress.txt"
    monkeypatch.setenv(limits.PROGRESS_FILE_ENV, str(path))
    assert limits.run_pool(lambda i, cancel: i * i, 3, 2, label="UCB1\tT=10") == [0, 1, 4]
    assert path.read_text() == "".join(f"UCB1 T=10\t{k}\t3\n" for k in range(4))  # a tab in the label is a space


def test_without_the_variable_nothing_is_written_and_the_result_is_the_same(tmp_path, monkeypatch):
    monkeypatch.delenv(limits.PROGRESS_FILE_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    assert limits.run_pool(lambda i, cancel: i, 3, 1, label="x") == [0, 1, 2]
    assert list(tmp_path.iterdir()) == []


def test_a_report_that_cannot_be_written_does_not_stop_the_simulation(tmp_path, monkeypatch):
    monkeypatch.setenv(limits.PROGRESS_FILE_ENV, str(tmp_path / "no" / "such" / "folder" / "p.txt"))
    assert limits.run_pool(lambda i, cancel: i, 2, 1, label="x") == [0, 1]


def test_simulate_names_the_policy_and_horizon_in_its_report(tmp_path, monkeypatch):
    path = tmp_path / "progress.txt"
    monkeypatch.setenv(limits.PROGRESS_FILE_ENV, str(path))
    ldp.simulate(ldp.make_policy("UCB1"), ldp.make_instance("ren2020-bernoulli"), 1000, 2, 0)
    assert path.read_text().splitlines()[-1] == "Policy('UCB1') T=1,000\t2\t2"


def test_latest_reads_the_last_whole_line_only():
    assert limits.ProgressFileBar.latest("") is None
    assert limits.ProgressFileBar.latest("a\t1\t5\nb\t2\t") == ("a", 1, 5)  # b is half-written
    assert limits.ProgressFileBar.latest("a\t1\t5\nb\t2\t7\n") == ("b", 2, 7)
    assert limits.ProgressFileBar.latest("garbage\n") is None


def test_the_bar_shows_the_runs_sets_the_variable_only_inside_and_leaves_no_file(monkeypatch):
    monkeypatch.setenv(limits.PROGRESS_FILE_ENV, "the caller's value")
    screen = io.StringIO()
    with limits.ProgressFileBar(file=screen, interval=0.01) as bar:
        path = os.environ[limits.PROGRESS_FILE_ENV]
        assert path == bar.path and os.path.exists(path)
        with open(path, "a") as f:
            f.write("Policy('UCB1') T=1,000\t0\t4\nPolicy('UCB1') T=1,000\t3\t4\n")
        time.sleep(0.3)
    assert os.environ[limits.PROGRESS_FILE_ENV] == "the caller's value"
    assert not os.path.exists(path)
    assert "Policy('UCB1') T=1,000: 3/4 runs" in screen.getvalue()
