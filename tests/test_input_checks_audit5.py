"""The fifth input-checks audit: hand-built instances and arms, the compiled kernels of ldpcode.mechanisms, the
slope and ratio helpers of ldpcode.experiments, save_table's flag, the symbolic links of ``findings --write``,
rerun's build folder and build failure, Lemma 7's linear program, private helper names in messages, and a few raw
errors. Each test failed before its fix (an input accepted with a plausible wrong number, a raw traceback, or a file
of the reader's replaced)."""

from __future__ import annotations

import math
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import bounds, mechanisms
from ldpcode import experiments as X
from ldpcode import paper_index as P
from ldpcode import rerun as rr
from ldpcode import sweep as sw
from ldpcode.__main__ import main
from ldpcode.instances import Arm, Family, Instance


def _one_line(err: pytest.ExceptionInfo) -> str:
    text = str(err.value)
    assert "\n" not in text and "_bernoulli" not in text and "_constant_levels" not in text
    return text


# --- 1. Instance and Arm check what they are given ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("family", "p0", "p1", "error", "match"),
    [
        (Family.BERNOULLI, 1.5, 0.0, ValueError, r"^p0 of a Bernoulli arm \(its mean\) must be in \[0, 1\], got 1.5$"),
        (Family.BERNOULLI, math.nan, 0.0, ValueError, r"^p0 of a Bernoulli arm must be a finite number, got nan$"),
        (Family.BERNOULLI, 0.5, 3.0, ValueError, r"^p1 is not a parameter of a Bernoulli arm"),
        (9, 0.5, 0.0, ValueError, r"^an arm's family must be a Family \(Family.BERNOULLI, .*unknown code 9$"),
        ("bernoulli", 0.5, 0.0, TypeError, r"^an arm's family must be a Family"),
        (True, 0.5, 0.0, TypeError, r"^an arm's family must be a Family"),
        (Family.BETA_A1, 0.0, 0.0, ValueError, r"^p0 of a Beta\(a, 1\) arm \(its a\) must be > 0, got 0.0$"),
        (Family.UNIFORM, 1.0, 0.0, ValueError, r"^a uniform on \[lo, hi\] arm needs lo = p0 <= hi = p1"),
        (Family.TWO_POINT, 1.0, 0.4, ValueError, r"^a uniform on \{lo, hi\} arm needs lo = p0 <= hi = p1"),
        (Family.GAUSSIAN, 0.5, -1.0, ValueError, r"^p1 of a Gaussian arm \(its sigma\) must be > 0, got -1.0$"),
        (Family.GAUSSIAN, 0.5, 0.0, ValueError, r"^p1 of a Gaussian arm \(its sigma\) must be > 0, got 0.0$"),
        (Family.GAUSSIAN, math.inf, 1.0, ValueError, r"^p0 of a Gaussian arm must be a finite number, got inf$"),
        (Family.UNIFORM, "0", 1.0, TypeError, r"^p0 of a uniform on \[lo, hi\] arm must be a real number"),
    ],
)
def test_an_arm_refuses_a_law_it_cannot_be(family, p0, p1, error, match):
    """Before: Arm(Family.BERNOULLI, 1.5), a nan mean, an unknown family 9, lo > hi and sigma = -1 were accepted."""
    with pytest.raises(error, match=match) as err:
        Arm(family, p0, p1)
    _one_line(err)


def test_an_instance_of_a_bernoulli_mean_above_one_is_refused_before_it_simulates():
    """Before: it simulated, with gaps computed from the mean 1.5 (a plausible wrong regret)."""
    with pytest.raises(ValueError, match=r"must be in \[0, 1\], got 1.5"):
        Instance("x", (Arm(Family.BERNOULLI, 1.5), Arm(Family.BERNOULLI, 0.5)))


@pytest.mark.parametrize(
    ("name", "arms", "error", "match"),
    [
        ("x", "ab", TypeError, r"^arms must be a tuple of Arm, got 'ab' of type str$"),  # was an AttributeError
        ("x", ("a",), TypeError, r"^arms\[0\] must be an Arm \(ldpcode.instances.Arm\), got 'a'$"),
        ("x", 3, TypeError, r"^arms must be a tuple of Arm"),
        (3, (Arm(Family.BERNOULLI, 0.5),), TypeError, r"^name must be a string"),
        ("x", (), ValueError, r"^an instance needs at least one arm$"),
    ],
)
def test_an_instance_refuses_what_is_not_a_tuple_of_arms(name, arms, error, match):
    with pytest.raises(error, match=match) as err:
        Instance(name, arms)
    _one_line(err)


def test_a_registered_name_is_only_for_the_registered_arms():
    """Before: Instance("ren2020-bernoulli", other arms) was accepted, and labelled as the paper's instance in every
    result and table."""
    two = (Arm(Family.BERNOULLI, 0.5), Arm(Family.BERNOULLI, 0.4))
    for name in ("ren2020-bernoulli", "ren2020-mixed", "ren2020-gaussian"):
        with pytest.raises(ValueError, match=rf"^instance name '{name}' is make_instance's.*give another name$") as e:
            Instance(name, two)
        _one_line(e)
        made = ldp.make_instance(name)
        assert Instance(name, made.arms) == made  # the registered arms themselves: accepted
    gauss = (Arm(Family.GAUSSIAN, 0.5, 1.0), Arm(Family.GAUSSIAN, 0.4, 2.0))
    with pytest.raises(ValueError, match=r"^instance name 'bernoulli' is make_instance's, for Bernoulli arms only"):
        Instance("bernoulli", gauss)
    with pytest.raises(ValueError, match=r"^instance name 'gaussian' is make_instance's, for Gaussian arms of one"):
        Instance("gaussian", gauss)
    assert Instance("my two arms", two).n_arms == 2  # any other name: the reader's


def test_make_instance_still_builds_every_registered_instance_and_a_list_of_arms_is_kept_as_a_tuple():
    for name in ldp.list_instances():
        kw = {"means": [0.7, 0.5]} if name in ("bernoulli", "gaussian") else {}
        inst = ldp.make_instance(name, **kw)
        assert inst.name == name and inst.n_arms == (2 if kw else 20)
    inst = Instance("listed", [Arm(Family.UNIFORM, 0.0, 1.0), Arm(Family.TWO_POINT, 0.5, 0.5)])
    assert isinstance(inst.arms, tuple) and hash(inst) == hash(Instance("listed", inst.arms))  # a list was unhashable


# --- 2. the compiled kernels are internal: not in __all__, and the public doors check ---------------------------------

KERNELS = ["bernoulli_scale", "ctb_probability", "draw_noise", "respond", "unbias", "unbias_scaled", "laplace_mean"]


@pytest.mark.parametrize("name", KERNELS)
def test_the_unchecked_kernels_are_not_public_but_stay_importable(name):
    """Before: ldp.mechanisms.__all__ (and the API page) offered them: draw_noise(5, rng, 3) gave zeros, respond(7, ...)
    the reward unprivatised, unbias(0.7, -1.0) a number."""
    from ldpcode.mechanisms import curators, global_dp

    assert name not in mechanisms.__all__
    assert name not in curators.__all__ and name not in global_dp.__all__  # automodule :members: reads __all__
    kernel = getattr(mechanisms, name)  # the engines import them
    doc = getattr(kernel, "__doc__", "") or ""
    assert "Internal kernel: no checks" in " ".join(doc.split()), name


def test_the_base_curator_and_a_curator_of_an_unknown_code_are_refused():
    """Before: Curator(1.0).privatize returned the rewards themselves, and its draw_noise zeros."""
    with pytest.raises(TypeError, match=r"^Curator is the base class of the curators and privatizes nothing") as err:
        mechanisms.Curator(1.0)
    _one_line(err)
    with pytest.raises(TypeError, match=r"^Curator is the base class"):
        mechanisms.Curator.respond_to_users([0.5], [1.0], np.random.default_rng(0))

    class Odd(mechanisms.CTL):
        code = 7

    with pytest.raises(TypeError, match=r"^Odd is a curator class with code 7 and privatizes nothing"):
        Odd(1.0)
    noise = mechanisms.CTL(1.0).draw_noise(np.random.default_rng(0), 3)
    assert np.array_equal(noise, mechanisms.draw_noise(mechanisms.Mechanism.LAPLACE, np.random.default_rng(0), 3))


def test_the_paper_index_names_the_checked_map_g():
    assert P.target("ldpcode.mechanisms.CTB.unbias") == ("func", "ldpcode.mechanisms.curators.CTB.unbias")
    names = [n for it in P.ITEMS for n in it.api]
    assert "ldpcode.mechanisms.unbias" not in names and "ldpcode.mechanisms.CTB.unbias" in names
    with pytest.raises(ImportError, match="'ldpcode.mechanisms.CTB.nothing', which does not exist"):
        P.resolve("ldpcode.mechanisms.CTB.nothing")


# --- 3. experiments: last_decade_slopes, sup_ratio, bounds_along_run --------------------------------------------------

T = 400


@pytest.fixture(scope="module")
def ren_run():
    return X.bounds_along_run(
        "LDP-UCB-L",
        ldp.make_instance("ren2020-bernoulli"),
        T,
        2,
        [1.0],
        seed=5,
        regret_bound=bounds.ldp_ucb_l_regret_bound,
        pulls_bound=bounds.ldp_ucb_l_pulls_bound,
    )


def test_last_decade_slopes_is_unchanged_on_what_bounds_along_run_gives(ren_run):
    slopes, rate = X.last_decade_slopes(ren_run.results, ren_run.t, ren_run.keep, T, 20)
    last = ren_run.t >= T // 10
    y = np.log(ren_run.results[1.0].mean_regret()[ren_run.keep][last])
    assert slopes[1.0] == np.polyfit(np.log(ren_run.t[last]), y, 1)[0]
    rates = [bounds.distribution_free_rate(20, int(s), 1.0) for s in ren_run.t[last]]
    assert rate == np.polyfit(np.log(ren_run.t[last]), np.log(rates), 1)[0]


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"keep": "int"}, r"^keep must be a boolean mask over the \d+ checkpoints, got dtype int64"),
        ({"t": "shifted"}, r"^t must be the checkpoints keep selects of every result"),
        ({"horizon": T // 2}, rf"^horizon must be the horizon of the results, {T} \(the last decade"),
        ({"n_arms": 3}, r"^n_arms must be the results' number of arms, 20, got 3$"),
    ],
)
def test_last_decade_slopes_refuses_a_mask_t_or_horizon_of_other_checkpoints(ren_run, change, match):
    """Before: keep as an int array gave a slope of about 0, a t of other checkpoints and a smaller horizon fitted
    another decade: plausible wrong slopes."""
    kw = dict(results=ren_run.results, t=ren_run.t, keep=ren_run.keep, horizon=T, n_arms=20)
    if change.get("keep") == "int":
        kw["keep"] = ren_run.keep.astype(np.int64)
    elif change.get("t") == "shifted":
        kw["t"] = ren_run.t + 1
    else:
        kw.update(change)
    with pytest.raises(ValueError, match=match) as err:
        X.last_decade_slopes(**kw)
    _one_line(err)
    with pytest.raises(TypeError, match=r"^results must be a non-empty dict of key -> SimulationResult"):
        X.last_decade_slopes({}, ren_run.t, ren_run.keep, T, 20)


def test_sup_ratio_refuses_negative_or_bool_regrets_and_an_infinite_bound():
    with pytest.raises(ValueError, match=r"^regret_runs must be finite and >= 0, got -1.0 at index \(0, 1\)$"):
        X.sup_ratio([[1.0, -1.0], [1.0, 1.0]], [1.0, 1.0])
    with pytest.raises(TypeError, match=r"^regret_runs must hold numbers, not bools"):
        X.sup_ratio(np.ones((2, 2), dtype=bool), [1.0, 1.0])
    with pytest.raises(ValueError, match=r"^bound_t must be > 0 and finite at every checkpoint"):
        X.sup_ratio(np.ones((2, 2)), [1.0, math.inf])  # was a ratio of 0 there: "holds"
    value, _ = X.sup_ratio([[1.0, 2.0], [3.0, 2.0]], [4.0, 2.0])
    assert value == 1.0


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda k: bounds.gdp_minimax_upper_rate(10**6, k, 1.0), "n_arms"),
        (lambda k: bounds.gdp_minimax_lower_bound(10**6, k, 1.0), "n_arms"),
        (lambda k: bounds.gdp_minimax_threshold(10**6, k), "n_arms"),
        (lambda k: bounds.table2_stochastic_minimax(10**6, k, 1.0), "n_arms"),
        (lambda k: bounds.table2_linear_minimax(10**6, k, 1.0), "dim"),
        (lambda k: bounds.distribution_free_rate(k, 10**6, 1.0), "n_arms"),
        (lambda k: bounds.gdp_minimax_threshold(k, 2), "horizon"),
    ],
)
def test_a_count_or_horizon_beyond_two_to_the_53_is_refused_in_one_short_line(call, name):
    """Before: gdp_minimax_upper_rate(10**6, 10**300, 1) returned a number, K = 10**400 raised OverflowError, and
    Theorem 2's refusal of the horizon printed K - 1 in full (300 digits)."""
    assert math.isfinite(call(1000))
    for k in (2**53 + 1, 10**300, 10**400):
        with pytest.raises(
            ValueError, match=rf"^{name} must be an integer <= 2\*\*53, got (\d{{16}}|an integer of \d+ bits)$"
        ):
            call(k)


@pytest.mark.parametrize(
    ("bound", "error", "match"),
    [
        (lambda m, t, e: math.nan, ValueError, r"^regret_bound must return a finite number >= 0, got nan$"),
        (lambda m, t, e: "12", TypeError, r"^regret_bound must return one number, got '12' of type str$"),
        (lambda m, t, e: -1.0, ValueError, r"^regret_bound must return a finite number >= 0, got -1.0$"),
    ],
)
def test_bounds_along_run_refuses_a_bound_that_is_not_a_number(bound, error, match):
    """Before: an all-nan bound (or an array of strings) was stored, and violations() found nothing wrong with it."""
    inst = ldp.make_instance("bernoulli", means=[0.9, 0.5])
    with pytest.raises(error, match=match):
        X.bounds_along_run(
            "LDP-UCB-L", inst, 50, 2, [1.0], seed=0, regret_bound=bound, pulls_bound=bounds.ldp_ucb_l_pulls_bound
        )


# --- 4. save_table: replace is a flag, the table a sweep's ------------------------------------------------------------


@pytest.fixture(scope="module")
def small_table():
    return sw.sweep(["UCB1"], [1.0], ldp.make_instance("bernoulli", means=[0.9, 0.5]), 50, 2)


@pytest.mark.parametrize("replace", ["no", 1, "False", None])
def test_save_table_replace_must_be_true_or_false(tmp_path, small_table, replace):
    """Before: replace='no' (and 1) were truthy, and wrote over the existing table."""
    path = sw.save_table(small_table, tmp_path / "t.csv")
    before = path.read_bytes()
    with pytest.raises(TypeError, match=r"^replace must be True or False, got") as err:
        sw.save_table(small_table.iloc[:0], path, replace=replace)
    _one_line(err)
    with pytest.raises(TypeError, match=r"^replace must be True or False"):
        sw.check_table_path(path, replace=replace)
    assert path.read_bytes() == before
    assert sw.save_table(small_table, path, replace=True) == path  # a bool: as before


def test_save_table_refuses_what_is_not_a_sweep_table(tmp_path, small_table):
    with pytest.raises(TypeError, match=r"^table must be a sweep's table, a pandas DataFrame .* got list$"):
        sw.save_table([1, 2], tmp_path / "x.csv")  # was an AttributeError
    with pytest.raises(ValueError, match=r"^table must have the columns of a sweep's table"):
        sw.save_table(small_table[["policy", "regret"]], tmp_path / "x.csv")
    assert not (tmp_path / "x.csv").exists()


# --- 5. findings --write writes through no symbolic link --------------------------------------------------------------


@pytest.mark.parametrize("linked", ["README.md", "intro.md"])
def test_findings_write_refuses_a_symbolic_link(tmp_path, monkeypatch, capsys, linked):
    """Before: os.replace put a plain file in place of the link README.md (or intro.md). The refusal comes before
    any work: reading the stored claims would fail the test."""
    from ldpcode.claims import findings as R
    from ldpcode.claims import report

    def no_work(root=None):
        raise AssertionError("findings --write read the stored claims before refusing the link")

    monkeypatch.setattr(report, "collect", no_work)
    monkeypatch.setenv("LDPCODE_ROOT", str(tmp_path))
    (tmp_path / "_toc.yml").write_text("root: intro\n")
    text = f"before\n{R.FINDINGS_START}\nold table\n{R.FINDINGS_END}\nafter\n"
    for name in R.FINDINGS_FILES:
        (tmp_path / name).write_text(text)
    target = tmp_path / "elsewhere.md"
    target.write_text(text)
    (tmp_path / linked).unlink()
    (tmp_path / linked).symlink_to(target)
    assert main(["findings", "--write"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{tmp_path / linked} is a symbolic link" in err and "Traceback" not in err
    assert (tmp_path / linked).is_symlink() and target.read_text() == text
    assert all((tmp_path / n).read_text() == text for n in R.FINDINGS_FILES)  # nothing written


# --- 6. rerun: an empty folder of the reader's in the build, a failed build --------------------------------------------

NB = "chapters/ren2020/lemma3_laplace_tail.ipynb"
NAME = "lemma3_laplace_tail"


@pytest.fixture
def fake_kernel(monkeypatch):
    """papermill copies the notebook: no kernel runs."""
    import papermill

    monkeypatch.setattr(
        papermill, "execute_notebook", lambda src, dst, **kw: Path(dst).write_text(Path(src).read_text())
    )


@pytest.fixture
def fake_build(monkeypatch, fake_kernel):
    """A build that writes a page, a nested file and an empty folder of its own (as Sphinx may)."""

    def build(root, executed, book):
        html = book / "_build" / "html"
        html.mkdir(parents=True)
        (html / f"{executed.stem}.html").write_text("<p>page</p>")
        (book / "_build" / "empty_of_the_build").mkdir()
        return html / f"{executed.stem}.html"

    monkeypatch.setattr(rr, "_build", build)


def test_an_empty_folder_the_reader_made_in_the_build_is_never_deleted(tmp_path, fake_build):
    """Before: _refuse_foreign_build looked at files and links only, and the next re-run rmtree'd the folder."""
    out = tmp_path / "out"
    rr.rerun(NB, {"samples": 20_000}, out)
    assert rr.rerun(NB, {"samples": 20_000}, out).exists()  # the build's own empty folder: recorded, replaced
    mine = out / "book" / "_build" / "html" / "mine"
    mine.mkdir()
    with pytest.raises(ValueError, match=r"holds the folder _build/html/mine/, which rerun did not write") as err:
        rr.rerun(NB, {"samples": 20_000}, out)
    _one_line(err)
    assert mine.is_dir()


def test_a_failed_build_is_one_line_naming_its_log_with_exit_status_1(tmp_path, fake_kernel, monkeypatch, capsys):
    """Before: the command printed an 80-line traceback of the RuntimeError and its 6,000 characters of output."""
    noise = "\n".join(f"sphinx line {i}" for i in range(200))

    def failed_build(cmd, **kw):
        return subprocess.CompletedProcess(cmd, 2, stdout=noise, stderr="Exception occurred: boom")

    monkeypatch.setattr(rr.subprocess, "run", failed_build)
    out = tmp_path / "out"
    assert main(["rerun", NB, "-p", "samples", "20000", "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("python -m ldpcode rerun: error: the one-page build of lemma3_laplace_tail.ipynb failed")
    assert "Traceback" not in err and "sphinx line" not in err
    log = Path(err.split("its log is ")[1].split(", and the executed")[0])
    try:
        assert "sphinx line 199" in log.read_text() and "boom" in log.read_text()
    finally:
        log.unlink()
    assert (out / f"{NAME}.ipynb").exists() and not os.path.lexists(out / "book")  # the notebook kept, no half build


# --- 7. Lemma 7's linear program has a ceiling -------------------------------------------------------------------------


@pytest.mark.parametrize(("step", "z_max"), [(1e-5, 12.0), (1e-300, 12.0), (0.01, 1e6)])
def test_lemma7_worst_noise_refuses_a_grid_beyond_its_ceiling(step, z_max):
    """Before: step=1e-5 raised MemoryError, 1e-6 had the process killed, 1e-300 an OverflowError."""
    with pytest.raises(ValueError, match=r"^step must be >= z_max / 100,000 \(LEMMA7_MAX_GRID: at most 200,001") as e:
        bounds.lemma7_worst_noise(0.5, step=step, z_max=z_max)
    _one_line(e)


# --- 8. a keyword no function takes is named with the public call ------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (
            lambda: ldp.make_instance("bernoulli", means=[0.5, 0.4], sigma=1),
            r"^make_instance\('bernoulli'\): unexpected parameter 'sigma'; it takes: means$",
        ),
        (
            lambda: ldp.make_instance("gaussian", means=[0.5], sgima=2),
            r"^make_instance\('gaussian'\): unexpected parameter 'sgima'; it takes: means, sigma$",
        ),
        (
            lambda: ldp.make_privacy_levels("constant"),
            r"^make_privacy_levels\('constant'\): missing parameter 'epsilon'; it takes: epsilon$",
        ),
        (
            lambda: ldp.make_privacy_levels("discrete", value=[1.0]),
            r"^make_privacy_levels\('discrete'\): unexpected parameter 'value'; it takes: values, probs, name$",
        ),
        (
            lambda: sw.sweep(["AdaP-UCB"], [1.0], "ren2020-bernoulli", 100, 1, options={"AdaP-UCB": {"alfa": 4}}),
            r"^sweep options of policy 'AdaP-UCB': unexpected parameter 'alfa'; it takes: alpha, beta, gamma, delta$",
        ),
    ],
)
def test_an_unknown_keyword_is_named_with_the_public_call(call, match):
    """Before: "_bernoulli() got an unexpected keyword argument 'sigma'", "_constant_levels() missing 1 required
    positional argument: 'epsilon'", "make_policy() got an unexpected keyword argument 'alfa'"."""
    with pytest.raises(TypeError, match=match) as err:
        call()
    _one_line(err)


# --- 9. raw errors made one line ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("a", [0.0, 0.25, 0.5, -1.0])
def test_lemma7_objective_refuses_a_outside_its_domain(a):
    """Before: -0.25 at a = 1/4 (a plausible wrong value), a math domain error at 0.5, ZeroDivisionError at 0."""
    with pytest.raises(ValueError, match=r"^a must be in \(0, 1/4\), the domain of Lemma 7's v_a, got"):
        bounds.lemma7_subgaussian_objective(a)


@pytest.mark.parametrize("lam", [math.nan, math.inf, [1.0, math.nan]])
def test_laplace_mixed_sum_tail_bound_refuses_a_lam_that_is_not_finite(lam):
    """Before: nan (the lemma says nothing) was returned, where its sibling laplace_sum_tail_bound refuses."""
    with pytest.raises(ValueError, match=r"^lam must be finite, got nan|^lam must be finite, got inf"):
        bounds.laplace_mixed_sum_tail_bound(lam, [1.0, 2.0])
    assert bounds.laplace_mixed_sum_tail_bound(1.0, [1.0, 2.0]) == math.exp(-1.0 / 40.0)


@pytest.mark.parametrize(
    "call",
    [
        lambda h: bounds.distribution_free_rate(3, h, 1.0),
        lambda h: bounds.gdp_minimax_lower_bound(h, 3, 1.0),
        lambda h: bounds.gdp_minimax_upper_rate(h, 3, 1.0),
        lambda h: bounds.table2_stochastic_minimax(h, 3, 1.0),
    ],
)
def test_a_horizon_beyond_the_engines_is_refused_not_an_overflow(call):
    """Before: a horizon of 1e308 raised OverflowError ("int too large to convert to float")."""
    with pytest.raises(ValueError, match=r"^horizon must be an integer <= 2\*\*53, got"):
        call(1e308)
    assert math.isfinite(call(10**6)) and math.isfinite(call(2**53))


def test_discrete_levels_refuse_probabilities_that_do_not_sum_to_one():
    """Before: probs [0.5, 0.5000001] passed np.isclose; the sampler renormalised them, while expect() used them as
    given."""
    with pytest.raises(ValueError, match=r"^probs must be non-negative, sum to 1 \(within 1e-9\) and match values"):
        ldp.make_privacy_levels("discrete", values=[1.0, 2.0], probs=[0.5, 0.5000001])
    levels = ldp.make_privacy_levels("discrete", values=[1.0, 2.0, 3.0], probs=[0.1, 0.2, 0.7])
    assert levels.p_at_least(2.0) == pytest.approx(0.9)


def test_write_findings_itself_refuses_a_symbolic_link(tmp_path):
    """The library call, not only the command line: a linked intro.md is refused before anything is read or
    written."""
    from ldpcode.claims import findings as R

    text = f"before\n{R.FINDINGS_START}\nold table\n{R.FINDINGS_END}\nafter\n"
    (tmp_path / "README.md").write_text(text)
    (tmp_path / "elsewhere.md").write_text(text)
    (tmp_path / "intro.md").symlink_to(tmp_path / "elsewhere.md")
    with pytest.raises(ValueError, match="intro.md is a symbolic link"):
        R.write_findings(tmp_path)
    assert (tmp_path / "intro.md").is_symlink() and (tmp_path / "README.md").read_text() == text


# --- the command line: an option given twice, an unknown option of a command ---------------------------------------


@pytest.mark.parametrize(
    "argv, said",
    [
        (["findings", "--wrte"], "python -m ldpcode findings: error: unrecognized arguments: --wrte"),
        (
            ["sweep", "--policies", "UCB1", "--instance", "ren2020-bernoulli", "--epsilons", "1", "--horizon", "1000",
             "--runs", "2", "--runs=3", "--out", "never.csv"],
            "python -m ldpcode sweep: error: argument --runs: given 2 times; give it once",
        ),
    ],
)  # fmt: skip
def test_the_command_line_names_the_command_and_refuses_an_option_given_twice(argv, said, capsys, tmp_path):
    """Before: '--runs 2 --runs 3' silently ran 3 runs, and 'findings --wrte' was refused by the top-level parser
    ("python -m ldpcode: error: ...", pointing at the top help)."""
    argv = [str(tmp_path / a) if a == "never.csv" else a for a in argv]
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith(said) and err.count("\n") == 1
    assert not (tmp_path / "never.csv").exists()


def test_the_hint_about_1e6_follows_only_a_whole_float():
    """'write 10**6, not 1e6' after horizon = 1.5 read as advice about a value the reader never typed."""
    from ldpcode.parameters.rules import Int

    with pytest.raises(TypeError, match=r"\(write 10\*\*6 or 1000000, not 1e6\)"):
        Int(2, 10**9)("horizon", 1e6)
    with pytest.raises(TypeError) as refused:
        Int(2, 10**9)("horizon", 1.5)
    assert "1e6" not in str(refused.value) and "horizon" in str(refused.value)


def test_a_constant_mean_regret_is_named_as_such_not_as_its_log():
    """The input review: a constant regret of 1 was refused as "y must not be constant (all values 0.0)"."""
    with pytest.raises(ValueError, match=r"^the means must not be constant \(all values 1.0\): their log-log slope"):
        ldp.loglog_slope([10, 100, 1000], [[1, 1, 1], [1, 1, 1]])


def test_a_bad_candidate_epsilon_min_is_named_by_its_index():
    """The input review: the message said the literal 'candidates[i]'."""
    levels = ldp.make_privacy_levels("ren-heldp-discrete")
    with pytest.raises(ValueError, match=r"^candidates\[1\] \(an epsilon_min\) must be a finite number > 0, got 0.0"):
        ldp.bounds.choose_epsilon_min(levels, "B", candidates=[1.0, 0.0])


@pytest.mark.parametrize("name", ["UCB1", "KL-UCB"])
def test_a_refused_huge_epsilon_is_shown_cut_to_one_short_line(name):
    """The input review: epsilon=2**2000 given to a non-private policy was printed in all its 603 digits."""
    with pytest.raises(
        ValueError,
        match=rf"^policy '{name}' is not private and takes no epsilon, got epsilon=an integer of about 2\*\*2000$",
    ) as e:
        ldp.make_policy(name, epsilon=2**2000)
    assert len(str(e.value)) < 120
