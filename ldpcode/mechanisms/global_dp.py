r"""Global DP (Azize and Basu 2022): the trusted curator sees raw rewards and releases private statistics.

The internal kernel ``laplace_mean`` (Lemma 1's private mean of an episode; it checks nothing, its checked door is
:func:`ldpcode.audit.lemma1_release`) and the binary tree mechanism
(:func:`tree_depth`, :func:`tree_push`; Dwork et al. 2010, Chan et al. 2011) that the global-DP policies of
:mod:`ldpcode.global_policies` call. :func:`tree_push` checks its arguments; the compiled kernels call its
unchecked twin :func:`_tree_push_kernel`, once a pull.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._validate import array_or_value, check_epsilon, check_int, check_real
from ..limits import MAX_HORIZON

__all__ = ["tree_depth", "tree_push"]  # the public names (the API page lists these): laplace_mean is an internal kernel


def laplace_mean(total, n, epsilon, draw):
    r"""Lemma 1 of Azize and Basu (2022): the private mean of n rewards in [0, 1] with sum ``total``,

    .. math:: f^\epsilon = \frac{\text{total}}{n} + \mathrm{Lap}\Big(\frac{1}{n\epsilon}\Big),

    given a standard Laplace ``draw`` (Theorem 1, the Laplace mechanism: the mean of n values in [0, 1]
    has sensitivity 1/n). Broadcasts.

    Internal kernel: no checks (the policies validate their inputs once; ``laplace_mean(..., -1, ...)`` returned a
    number); use :func:`ldpcode.audit.lemma1_release`, or the global-DP policies (``make_policy("AdaP-UCB", ...)``).
    """
    return total / n + draw / (epsilon * n)


def tree_depth(horizon: int) -> int:
    """Levels of the binary tree mechanism over a stream of at most ``horizon`` items: floor(log2 T) + 1,
    so that every count n <= T is a sum of distinct powers 2^j with j < depth. ``horizon`` is an integer in [1, 2**53]
    (the engines' ``MAX_HORIZON``; tree_depth(0) was 0 and tree_depth(-5) 3; tree_depth(100.7) truncated to 7, and
    tree_depth(10**400) was 1329)."""
    return check_int("horizon", horizon, minimum=1, maximum=MAX_HORIZON).bit_length()


def tree_push(nodes, n, draw, scale):
    r"""The binary (tree) mechanism of Dwork et al. (2010) and Chan et al. (2011), one item at a time.

    ``nodes[j]`` holds the Laplace noise of the level-j node in use by the prefix of ``n - 1`` items; the
    prefix of n items uses the nodes of the set bits of n (node (j, n >> j) for each set bit j). Going from
    n - 1 to n sets bit j0 = (trailing zeros of n) and clears the bits below it, so exactly one node is new:
    it gets ``scale * draw``. Returns the total noise of the prefix of n items (sum over the set bits, in
    increasing j). Each item lies in at most ``len(nodes)`` nodes, so ``scale = depth / epsilon`` makes the
    stream of private prefix sums epsilon-DP.

    ``nodes`` is a writable 1-d float64 array of at most 63 levels (updated in place), ``n`` an integer with
    1 <= n < 2**len(nodes) (n = 0 looped forever, and a larger n wrote past the end of ``nodes``), ``draw`` a
    finite number and ``scale`` a finite number > 0. The compiled engines call :func:`_tree_push_kernel`, which
    checks nothing.
    """
    if not (isinstance(nodes, np.ndarray) and nodes.ndim == 1 and nodes.dtype == np.float64 and nodes.size > 0):
        shown = array_or_value(nodes)
        raise TypeError(f"nodes must be a non-empty 1-d float64 numpy array (np.zeros(depth)), got {shown}")
    if nodes.size > 63:  # the kernel counts in int64: n < 2**63
        raise ValueError(f"nodes must have at most 63 levels (n is an int64), got {nodes.size}")
    if not nodes.flags.writeable:
        raise ValueError("nodes must be a writable array: tree_push updates it in place")
    n = check_int("n", n, minimum=1)
    if n >= 2**nodes.size:
        shown = str(n) if n.bit_length() <= 128 else f"an integer of {n.bit_length()} bits"
        raise ValueError(
            f"n must be an integer < 2**len(nodes) = {2**nodes.size} (a tree of {nodes.size} levels counts no "
            f"further; tree_depth(horizon) levels hold every n <= horizon), got {shown}"
        )
    draw = check_real("draw", draw)
    scale = check_epsilon(scale, "scale", floor=0)
    return _tree_push_kernel(nodes, n, draw, scale)


@njit(cache=True, nogil=True)
def _tree_push_kernel(nodes, n, draw, scale):
    """:func:`tree_push` without its checks, for the compiled engines (DP-UCB's kernel, once a pull): n must be in
    [1, 2**len(nodes)), as the engine's counts are by construction (its depth is ``tree_depth(horizon)``)."""
    j0 = 0
    while (n >> j0) & 1 == 0:
        j0 += 1
    for j in range(j0):
        nodes[j] = 0.0
    nodes[j0] = scale * draw
    total = 0.0
    for j in range(nodes.shape[0]):
        if (n >> j) & 1:
            total += nodes[j]
    return total
