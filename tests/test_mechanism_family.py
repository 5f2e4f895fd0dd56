"""The mechanisms as one family (ldpcode.mechanisms.LocalMechanism): every member's privatize agrees with its
output_mean and output_law, its exact loss with the closed forms by hand, and bad input is refused."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ldpcode.mechanisms as M
from ldpcode import audit, reductions, vetted

N = 200_000  # draws per check; tolerance 5 standard errors of the sample mean (false alarm about 6e-7)


def _members(eps=1.0):
    return [
        M.CTL(eps),
        M.CTB(eps),
        M.CTLS(eps),
        M.CTBS(eps),
        M.LaplaceMechanism(eps, 2.0),
        M.GaussianMechanism(eps, 1e-5, 2.0),
    ]


def test_every_member_is_in_the_family():
    assert set(M.MECHANISM_FAMILY) == {"CTL", "CTB", "CTL-S", "CTB-S", "Laplace", "Gaussian"}
    for m in _members():
        assert isinstance(m, M.LocalMechanism), m
        assert type(m) in M.MECHANISM_FAMILY.values()
    assert not isinstance(object(), M.LocalMechanism)


@pytest.mark.parametrize("k", range(6))
@pytest.mark.parametrize("x", [0.0, 0.3, 1.0])
def test_privatize_mean_matches_output_law_and_output_mean(k, x):
    """For a fixed input x: the sample mean of N private outputs is within 5 standard errors of output_law(x)'s
    mean, and for the bounded members output_law(x).mean() equals output_mean(x)."""
    m = _members(0.8)[k]
    rng = np.random.default_rng(1000 + k)
    out = m.privatize(np.full(N, x), rng)
    law = m.output_law(x)
    se = float(law.std()) / math.sqrt(N)
    assert abs(out.mean() - float(law.mean())) < 5 * se
    if isinstance(m, (M.CTLS, M.CTBS)):  # output_mean is on a Gaussian arm N(mu, 1) (Lemmas 8, 9), see below
        return
    assert float(law.mean()) == pytest.approx(float(m.output_mean(x)), rel=1e-14, abs=1e-15)


@pytest.mark.parametrize("cls", [M.CTLS, M.CTBS])
def test_sigmoid_curators_output_mean_is_on_a_gaussian_arm(cls):
    """CTL-S and CTB-S: output_mean(mu) is the mean response when the reward is N(mu, 1) (Lemmas 8, 9)."""
    m, mu = cls(1.5), 0.4
    rng = np.random.default_rng(7)
    out = m.privatize(rng.normal(mu, 1.0, N), rng)
    assert abs(out.mean() - float(m.output_mean(mu))) < 5 * out.std() / math.sqrt(N)


def test_exact_loss_by_hand():
    e = math.exp(1.0)
    # CTB between 0 and 1: log(e/(1+e)) - log(1/(1+e)) = 1; between 1/4 and 3/4: log((3e + 1)/(e + 3))
    assert M.CTB(1.0).exact_epsilon() == pytest.approx(1.0, rel=1e-14)
    assert M.CTB(1.0).privacy_loss([0.25, 0.75]) == pytest.approx(math.log((3 * e + 1) / (e + 3)), rel=1e-14)
    assert M.CTB(2000.0).exact_epsilon() == pytest.approx(2000.0, rel=1e-14)  # the log-space branch
    # Laplace, sensitivity 1, scale 1/eps: eps; over inputs 0.2 and 0.7 at eps = 2: 1
    assert M.CTL(0.7).exact_epsilon() == pytest.approx(0.7, rel=1e-14)
    assert M.CTL(2.0).privacy_loss([0.2, 0.7]) == pytest.approx(1.0, rel=1e-14)
    assert M.LaplaceMechanism(0.7, 2.0).exact_epsilon() == pytest.approx(0.7, rel=1e-14)
    assert M.LaplaceMechanism(1.0, 2.0).privacy_loss([-1.0, 0.0]) == pytest.approx(0.5, rel=1e-14)
    # the Sigmoid curators between 0 and log 3: s = 1/2 and 3/4
    assert M.CTLS(3.0).privacy_loss([0.0, math.log(3)]) == pytest.approx(0.75, rel=1e-14)
    assert M.CTBS(1.0).privacy_loss([0.0, math.log(3)]) == pytest.approx(
        M.CTB(1.0).privacy_loss([0.5, 0.75]), rel=1e-14
    )
    assert M.CTLS(3.0).exact_epsilon() == pytest.approx(3.0, rel=1e-14)  # the supremum over the reals
    assert M.CTL(1.0).privacy_loss([0.4]) == 0.0


def test_gaussian_exact_epsilon_inverts_the_exact_delta():
    g = M.GaussianMechanism(0.5, 1e-5, 2.0)
    eps = g.exact_epsilon()
    assert float(g.exact_delta(eps)) == pytest.approx(1e-5, rel=1e-8)
    assert float(g.exact_delta(0.99 * eps)) > 1e-5
    assert eps < 0.5  # Theorem A.1's sigma is conservative for eps < 1
    assert g.privacy_loss([0.0, 1.0], 0.0) == math.inf  # no pure-epsilon guarantee
    assert g.privacy_loss([3.0, 3.0]) == 0.0
    assert g.noise_variance == g.sigma**2 and M.LaplaceMechanism(1.0, 0.5).noise_variance == 0.5


def test_unbias_inverts_lemma5():
    """g(M_B(r)) has mean r (extended version, Section 3.2): unbias applied to Lemma 5's mean gives mu back."""
    for eps in (0.1, 1.0, 5.0):
        m = M.CTB(eps)
        for mu in (0.0, 0.2, 0.5, 1.0):
            assert float(m.unbias(m.output_mean(mu))) == pytest.approx(mu, abs=1e-12)
    with pytest.raises(ValueError, match="responses"):
        M.CTB(1.0).unbias([0.0, 2.0])


def test_audit_and_reductions_use_the_family():
    """The audit's exact loss is the member's privacy_loss, the old names point at the family's functions."""
    for m in _members(1.3):
        if isinstance(m, M.GaussianMechanism):
            assert audit.exact_curator_loss(m, [0.0, 2.0]) == m.privacy_loss([0.0, 2.0])
        else:
            assert audit.exact_curator_loss(m, [0.0, 0.5, 1.0]) == m.privacy_loss([0.0, 0.5, 1.0])
    assert reductions.gaussian_exact_delta is M.gaussian_exact_delta
    assert audit.gaussian_epsilon_at_delta is M.gaussian_epsilon_at_delta


def test_ctb_loss_is_the_maximum_of_the_privacy_loss_matrix_bit_for_bit():
    rng = np.random.default_rng(3)
    for eps in (0.01, 0.5, 3.0, 40.0, 700.0):
        u = rng.uniform(0, 1, 7)
        e = math.exp(eps)
        table = np.column_stack([((1 - u) * e + u) / (1 + e), (u * e + 1 - u) / (1 + e)])
        assert M.ctb_privacy_loss(u, eps) == float(audit.privacy_loss_matrix(table).max())


def test_vetted_ctb_law_agrees_with_the_family():
    """VettedCTB derives Lemma 5's law from its keep/flip construction, independently of CTB's formula."""
    u = np.linspace(0, 1, 11)
    for eps in (0.2, 2.0, 20.0):
        p = M.CTB(eps).output_law(u).pmf(1)
        assert np.allclose(vetted.VettedCTB(eps).pmf(1.0, u), p, rtol=1e-13, atol=0)


@pytest.mark.parametrize(
    "call",
    [
        lambda: M.CTB(0.0),
        lambda: M.CTL(-1.0),
        lambda: M.CTB(float("nan")),
        lambda: M.LaplaceMechanism(0.0),
        lambda: M.GaussianMechanism(1.0, 0.0),
    ],
)
def test_bad_levels_refused(call):
    with pytest.raises(ValueError, match="epsilon|delta"):
        call()


@pytest.mark.parametrize("cls", [M.CTL, M.CTB])
@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan")])
def test_bad_inputs_refused(cls, bad):
    m = cls(1.0)
    for call, name in (
        (lambda: m.output_law(bad), "x"),
        (lambda: m.output_mean(bad), "mu"),
        (lambda: m.privacy_loss([0.0, bad]), "inputs"),
        (lambda: m.privatize([bad], np.random.default_rng(0)), "rewards"),
    ):
        with pytest.raises(ValueError, match=name):
            call()


def test_bad_inputs_refused_by_the_additive_mechanisms():
    for m in (M.LaplaceMechanism(1.0), M.GaussianMechanism(1.0, 1e-5)):
        with pytest.raises(ValueError, match="inputs"):
            m.privacy_loss([])
        with pytest.raises(ValueError, match="x"):
            m.output_law(float("inf"))
        with pytest.raises(ValueError, match="mu"):
            m.output_mean(float("nan"))
    with pytest.raises(ValueError, match="u must"):
        M.ctb_privacy_loss([], 1.0)


@settings(max_examples=60, deadline=None)
@given(eps=st.floats(1e-3, 700.0), mu=st.floats(0.0, 1.0))
def test_ctb_properties(eps, mu):
    m = M.CTB(eps)
    law = m.output_law(mu)
    assert float(law.mean()) == pytest.approx(float(m.output_mean(mu)), rel=1e-12, abs=1e-15)
    # Lemma 5: the mean lies between 1/2 and mu, and on mu's side of 1/2
    mean = float(m.output_mean(mu))
    assert min(0.5, mu) - 1e-15 <= mean <= max(0.5, mu) + 1e-15
    assert m.exact_epsilon() == pytest.approx(eps, rel=1e-12)
    assert m.privacy_loss([mu, 1.0 - mu]) <= eps * (1 + 1e-12)


@settings(max_examples=60, deadline=None)
@given(eps=st.floats(1e-3, 1e3), mu=st.floats(0.0, 1.0), sens=st.floats(1e-3, 1e3))
def test_laplace_properties(eps, mu, sens):
    m, lm = M.CTL(eps), M.LaplaceMechanism(eps, sens)
    assert float(m.output_law(mu).mean()) == pytest.approx(mu, abs=1e-15)
    assert float(m.output_law(mu).std()) == pytest.approx(math.sqrt(2) / eps, rel=1e-12)
    assert m.exact_epsilon() == pytest.approx(eps, rel=1e-12)
    assert lm.exact_epsilon() == pytest.approx(eps, rel=1e-12)
    assert lm.privacy_loss([0.0, mu * sens]) == pytest.approx(mu * eps, rel=1e-12, abs=1e-300)
