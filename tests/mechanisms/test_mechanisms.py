"""Curators against their closed forms: Lemma 5's output mean, the e^eps privacy ratio, Sigmoid means."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ldpcode as ldp
from ldpcode import mechanisms as mech

EPS = st.floats(min_value=1e-3, max_value=20.0)
UNIT = st.floats(min_value=0.0, max_value=1.0)


def test_lemma5_closed_form_by_hand():
    # mu = 0.9, eps = 2: 1/2 + 0.8 (e^2 - 1) / (2 (e^2 + 1)) = 1/2 + 0.4 tanh(1) = 0.80463766...
    e2 = math.exp(2.0)
    assert ldp.CTB(2.0).output_mean(0.9) == pytest.approx(0.5 + 0.8 * (e2 - 1) / (2 * (e2 + 1)), rel=1e-15)
    assert ldp.CTB(2.0).output_mean(0.9) == pytest.approx(0.8046377, abs=1e-7)
    assert ldp.CTB(0.2).output_mean(0.5) == 0.5


@pytest.mark.parametrize("eps", [0.2, 1.0, 2.0])
@pytest.mark.parametrize("arm", [0, 1, 6, 11, 16])  # Bernoulli 0.9, Beta(4,1), {0.4,1}, Bernoulli 0.6, U[0,1]
def test_lemma5_empirical_mean_on_every_family(eps, arm):
    rng = np.random.default_rng(100 + arm)
    inst = ldp.make_instance("ren2020-mixed")
    n = 400_000
    rewards = inst.sample(arm, n, rng)
    out = ldp.CTB(eps).privatize(rewards, rng)
    expected = ldp.CTB(eps).output_mean(inst.means[arm])
    se = math.sqrt(expected * (1 - expected) / n)
    assert abs(out.mean() - expected) < 4.5 * se
    assert set(np.unique(out)) <= {0.0, 1.0}


@pytest.mark.parametrize("eps", [0.5, 2.0])
def test_ctl_output_mean_and_variance(eps):
    rng = np.random.default_rng(7)
    rewards = np.full(400_000, 0.3)
    out = ldp.CTL(eps).privatize(rewards, rng)
    sd = math.sqrt(2) / eps  # Laplace(1/eps) has variance 2/eps^2
    assert abs(out.mean() - 0.3) < 4.5 * sd / math.sqrt(rewards.size)
    assert out.std() == pytest.approx(sd, rel=0.01)
    assert ldp.CTL(eps).output_mean(0.3) == 0.3


@given(eps=EPS, r=UNIT, r2=UNIT)
def test_ctb_privacy_ratio_at_most_exp_eps(eps, r, r2):
    c = ldp.CTB(eps)
    p, p2 = c.probability_one(np.array([r, r2]))
    bound = math.exp(eps) * (1 + 1e-12)
    assert p <= bound * p2 and p2 <= bound * p
    # 1 - p is exact for p >= 1/2, but p carries its rounding (2^-53 relative), which 1 - p magnifies by up to
    # e^eps: the float probabilities' ratio exceeds e^eps by that much (7e-12 relative at eps = 11, found by
    # hypothesis), an eps larger by as much, far below any level the book reports
    bound_c = math.exp(eps) * (1 + max(1e-12, 2.0**-52 * math.exp(eps)))
    assert (1 - p) <= bound_c * (1 - p2) and (1 - p2) <= bound_c * (1 - p)


@given(eps=EPS)
def test_ctb_privacy_ratio_is_attained_at_the_extremes(eps):
    p0, p1 = ldp.CTB(eps).probability_one(np.array([0.0, 1.0]))
    assert p1 / p0 == pytest.approx(math.exp(eps), rel=1e-12)
    # 1 - p1 = 1/(1 + e^eps) loses about eps/ln(2) bits to cancellation: allow for it
    assert (1 - p0) / (1 - p1) == pytest.approx(math.exp(eps), rel=max(1e-12, 1e-15 * math.exp(eps)))


@given(eps=EPS, r=UNIT, r2=UNIT, x=st.floats(min_value=-4, max_value=5))
def test_ctl_density_ratio(eps, r, r2, x):
    # x within 4 of [0, 1]: the density stays above e^-80 for eps <= 20, so the ratio never underflows to 0/0
    c = ldp.CTL(eps)
    ratio = c.density(x, r) / c.density(x, r2)
    assert ratio <= math.exp(eps * abs(r - r2)) * (1 + 1e-9)


@given(r=st.floats(min_value=-30, max_value=30), eps=EPS)
def test_ctbs_is_ctb_of_the_sigmoid(r, eps):
    s = 1 / (1 + math.exp(-r))
    assert ldp.CTBS(eps).probability_one(np.array([r]))[0] == pytest.approx(
        ldp.CTB(eps).probability_one(np.array([s]))[0], rel=1e-12
    )


def test_gaussian_sigmoid_mean_against_monte_carlo():
    rng = np.random.default_rng(11)
    z = rng.standard_normal(1_000_000)
    for mu in (0.0, 0.5, 0.9):
        mc = (1 / (1 + np.exp(-(mu + z)))).mean()
        assert mech.gaussian_sigmoid_mean(mu) == pytest.approx(mc, abs=1e-3)
    assert mech.gaussian_sigmoid_mean(0.0) == pytest.approx(0.5, abs=1e-15)  # symmetry


@pytest.mark.parametrize("cls", [ldp.CTLS, ldp.CTBS])
def test_sigmoid_curators_output_mean_on_gaussian_arm(cls):
    rng = np.random.default_rng(5)
    inst = ldp.make_instance("ren2020-gaussian")
    n = 400_000
    out = cls(0.5).privatize(inst.sample(0, n, rng), rng)
    expected = cls(0.5).output_mean(0.9)
    assert abs(out.mean() - expected) < 4.5 * out.std() / math.sqrt(n)


def test_respond_matches_the_formulas():
    e = math.exp(1.3)
    assert mech.respond(mech.Mechanism.LAPLACE, False, 0.25, -0.5, 2.0, e) == 0.25 - 1.0
    p = (0.25 * e + 0.75) / (1 + e)
    assert mech.respond(mech.Mechanism.BERNOULLI, False, 0.25, p - 1e-12, 1.0, e) == 1.0
    assert mech.respond(mech.Mechanism.BERNOULLI, False, 0.25, p + 1e-12, 1.0, e) == 0.0
    assert mech.respond(mech.Mechanism.NONE, True, 0.0, 0.7, 1.0, e) == 0.5


def test_curator_repr_and_noise_kind():
    assert repr(ldp.CTB(2)) == "CTB(epsilon=2)"
    assert ldp.CTL(1).noise_kind == "laplace" and ldp.CTBS(1).noise_kind == "uniform"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_laplace_draws_are_numpys_bit_for_bit(seed):
    """draw_noise(LAPLACE) computes NumPy's Laplace formula in compiled code: the same bits as
    rng.laplace, and the generator is left in the same state (the next draws agree too)."""
    from ldpcode import mechanisms as M

    a, b = np.random.default_rng(seed), np.random.default_rng(seed)
    x, y = M.draw_noise(M.Mechanism.LAPLACE, a, (300, 1000)), b.laplace(0.0, 1.0, (300, 1000))
    assert x.shape == y.shape and x.tobytes() == y.tobytes()
    assert a.random() == b.random()


def test_laplace_draws_fall_back_to_numpy_on_a_zero_uniform():
    """A uniform of exactly 0 makes NumPy draw again; draw_noise then rewinds and uses NumPy's sampler."""
    from ldpcode import mechanisms as M

    class ZeroAtThree:  # a generator whose uniforms have a 0 at position 3 (probability 2^-53 in real life)
        def __init__(self, seed):
            self.g = np.random.default_rng(seed)
            self.bit_generator = self.g.bit_generator

        def random(self, size):
            u = self.g.random(size)
            u.flat[3] = 0.0
            return u

        def laplace(self, loc, scale, size):
            return self.g.laplace(loc, scale, size)

    x = M.draw_noise(M.Mechanism.LAPLACE, ZeroAtThree(8), 10)
    assert x.tobytes() == np.random.default_rng(8).laplace(0.0, 1.0, 10).tobytes()


def test_gaussian_sigmoid_mean_up_to_its_largest_order():
    """Gauss-Hermite quadrature is accurate up to GAUSS_HERMITE_MAX_ORDER nodes (NumPy's weights stay normal doubles);
    371 nodes gave 0.0 and 372 on nan, so a larger order is refused by name."""
    top = mech.GAUSS_HERMITE_MAX_ORDER
    for mu, sigma in [(0.5, 1.0), (0.0, 2.0), (0.2, 0.1)]:
        assert float(mech.gaussian_sigmoid_mean(mu, sigma, order=top)) == pytest.approx(
            float(mech.gaussian_sigmoid_mean(mu, sigma)), abs=1e-15
        )
    for order in (top + 1, 371, 372, 10**7):
        with pytest.raises(ValueError, match=rf"^order must be an integer <= {top}, got {order}"):
            mech.gaussian_sigmoid_mean(0.5, 1.0, order=order)


def test_gaussian_privacy_curve_refuses_what_is_no_epsilon():
    """The privacy curve's ε is a finite number >= 0 (0 included: the curve starts there); '0.5' was 0.5, True was 1
    and nan went through as nan. The privacy loss refused nothing of f: f = nan gave a loss of nan."""
    assert mech.gaussian_exact_delta(0.0, 1.0, 1.0) == pytest.approx(
        math.erf(0.5 / math.sqrt(2))
    )  # Phi(1/2) - Phi(-1/2)
    for f in (mech.gaussian_exact_delta, mech.gaussian_loss_tail):
        for bad in ("0.5", True, [True], None):
            with pytest.raises(TypeError, match=r"^epsilon must (be a number or an array of numbers|hold numbers)"):
                f(bad, 1.0, 1.0)
        for bad in (math.nan, -1.0, [1.0, -0.5], math.inf):
            with pytest.raises(ValueError, match=r"^epsilon must be finite and >= 0, got"):
                f(bad, 1.0, 1.0)
    for name, args in (("f", ([0.1], math.nan, 1.0)), ("f_prime", ([0.1], 0.0, "1")), ("outputs", (["0.5"], 0, 1))):
        with pytest.raises((TypeError, ValueError), match=rf"^{name} must be"):
            mech.gaussian_privacy_loss(*args, 1.0)
    with pytest.raises(ValueError, match=r"^outputs, f and f_prime must broadcast together"):
        mech.gaussian_privacy_loss([0.1, 0.2], [0.0, 1.0], [1.0, 0.0, 2.0], 1.0)
    y = np.array([0.1, -0.4])
    np.testing.assert_array_equal(mech.gaussian_privacy_loss(y, 0.0, 1.0, 2.0), ((y - 1.0) ** 2 - y**2) / 8.0)


def test_gaussian_sigmoid_mean_of_a_wide_arm_sees_the_step():
    """E[s(mu + sigma Z)] for sigma > 2, against int_0^inf (s(mu + sigma z) + s(mu - sigma z)) phi(z) dz by QUADPACK
    split at the steps (z = |mu|/sigma): 80 Gauss-Hermite nodes gave 0.50000007 at mu = 3, sigma = 100 (true
    0.5119645), and E[e^X] = e^{mu + sigma^2/2} = 1.2457e-85 in the tail at mu = -200, sigma = 3."""
    from scipy import integrate, special, stats

    def ref(mu, sigma):
        f = lambda z: (special.expit(mu + sigma * z) + special.expit(mu - sigma * z)) * stats.norm.pdf(z)  # noqa: E731
        z0 = abs(mu) / sigma
        return sum(integrate.quad(f, a, b, epsabs=1e-17, limit=500)[0] for a, b in ((0, z0), (z0, z0 + 40)))

    for mu, sigma in ((3.0, 100.0), (0.5, 3.0), (-5.0, 2.5), (30.0, 10.0)):
        assert mech.gaussian_sigmoid_mean(mu, sigma) == pytest.approx(ref(mu, sigma), abs=1e-14)
    # sigma = 1e6: the density is flat across the step and s(x) - 1{x > 0} odd, so the mean is Phi(1e-6) to 1e-18
    assert mech.gaussian_sigmoid_mean(1.0, 1e6) == pytest.approx(special.ndtr(1e-6), abs=1e-15)
    assert mech.make_curator("CTL-S", 2.0).output_mean(3.0, 100.0) == pytest.approx(0.5119645062777832, rel=1e-13)
    assert mech.gaussian_sigmoid_mean(-200.0, 3.0) == pytest.approx(math.exp(-200 + 4.5), rel=1e-9, abs=0)


def test_ctb_exact_epsilon_at_a_tiny_epsilon_is_epsilon():
    """log(P{1|1}/P{1|0}) = log(e^eps) = eps; e^eps rounded to 1 + 1.00000008e-9 at eps = 1e-9, and the audit saw a
    loss 8e-8 above eps. The spread is now log1p(tanh(eps/2) (1 + e^eps)), within 2 ulps of eps."""
    for eps in (1e-9, 1e-6, 1e-4):
        assert mech.make_curator("CTB", eps).exact_epsilon() == pytest.approx(eps, rel=5e-16, abs=0)
    # P{1|u} = s(-eps) + u tanh(eps/2): between u = 0.2 and 0.7 the loss is log((1/2 + 0.7 t)/(1/2 + 0.2 t)), t = eps/2
    assert mech.ctb_privacy_loss([0.2, 0.7], 1e-9) == pytest.approx(5e-10, rel=1e-9, abs=0)


def test_gaussian_loss_tail_and_privacy_loss_at_extreme_scales():
    """L ~ N(r^2/2, r^2), r = Delta/sigma: at r = 1e-200 and eps = 0, P[L > 0] = Phi(r/2) = 1/2 (was nan); at r = 1e200
    and eps = 1, 1 (was ZeroDivisionError). The loss at y = 1e200, f = 0, f' = 1, sigma = 1 is ((y-1)^2 - y^2)/2 =
    1/2 - y = -1e200 (was nan: the squares overflowed)."""
    assert mech.gaussian_loss_tail(0.0, 1e200, 1.0) == pytest.approx(0.5, rel=1e-15)
    assert mech.gaussian_loss_tail(1.0, 1e-200, 1.0) == 1.0
    # r = 1e-200 / 1e200 underflows to 0: the loss is degenerate at 0, P[L > 0] -> 1/2 (the branch gave 0), P[L > 1] = 0
    assert (mech.gaussian_loss_tail(0.0, 1e200, 1e-200), mech.gaussian_loss_tail(1.0, 1e200, 1e-200)) == (0.5, 0.0)
    assert mech.gaussian_privacy_loss(1e200, 0.0, 1.0, 1.0) == pytest.approx(-1e200, rel=1e-15)
