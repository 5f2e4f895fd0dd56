r"""Global DP (Azize and Basu 2022): the trusted curator sees raw rewards and releases private statistics.

:func:`laplace_mean` (Lemma 1's private mean of an episode) and the binary tree mechanism
(:func:`tree_depth`, :func:`tree_push`; Dwork et al. 2010, Chan et al. 2011) that the global-DP policies of
:mod:`ldpcode.global_policies` call.
"""

from __future__ import annotations

from numba import njit


def laplace_mean(total, n, epsilon, draw):
    r"""Lemma 1 of Azize and Basu (2022): the private mean of n rewards in [0, 1] with sum ``total``,

    .. math:: f^\epsilon = \frac{\text{total}}{n} + \mathrm{Lap}\Big(\frac{1}{n\epsilon}\Big),

    given a standard Laplace ``draw`` (Theorem 1, the Laplace mechanism: the mean of n values in [0, 1]
    has sensitivity 1/n). Broadcasts; no checks (the policies validate their inputs once).
    """
    return total / n + draw / (epsilon * n)


def tree_depth(horizon: int) -> int:
    """Levels of the binary tree mechanism over a stream of at most ``horizon`` items: floor(log2 T) + 1,
    so that every count n <= T is a sum of distinct powers 2^j with j < depth."""
    return int(horizon).bit_length()


@njit(cache=True, nogil=True)
def tree_push(nodes, n, draw, scale):
    r"""The binary (tree) mechanism of Dwork et al. (2010) and Chan et al. (2011), one item at a time.

    ``nodes[j]`` holds the Laplace noise of the level-j node in use by the prefix of ``n - 1`` items; the
    prefix of n items uses the nodes of the set bits of n (node (j, n >> j) for each set bit j). Going from
    n - 1 to n sets bit j0 = (trailing zeros of n) and clears the bits below it, so exactly one node is new:
    it gets ``scale * draw``. Returns the total noise of the prefix of n items (sum over the set bits, in
    increasing j). Each item lies in at most ``len(nodes)`` nodes, so ``scale = depth / epsilon`` makes the
    stream of private prefix sums epsilon-DP.
    """
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
