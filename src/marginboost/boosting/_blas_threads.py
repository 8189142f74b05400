"""Every fit runs with BLAS on one thread: its numbers do not depend on the machine's cores.

OpenBLAS shares a dot product of more than 10,000 elements out among its threads and adds
their partial sums, so ``a @ b`` differs in its last bits between one thread and two.  The
fits take such products over the training examples every round (the edge, the objective, the
step's sums), and a last bit can tip a later tie: fitted on Adult's 48,842 rows,
:class:`~marginboost.AdaBoost`'s ensembles with one BLAS thread and with two are not the same
(measured).  Below 10,000 elements OpenBLAS uses one thread anyway, so a fit's numbers are
those it has always had there; above, they no longer depend on how many cores the machine
has.  It also keeps a fit fast on a busy machine: with two BLAS threads, one of them waiting
for a core that other work holds, a depth-3 AdaBoost tree on Adult took twice as long.

Every estimator's ``fit`` (and ``fit_path``) runs its body inside :func:`one_blas_thread`
(a ``with`` block adds no frame, so warnings still point at the caller's line).  The numba
kernels keep their own threads (their results do not depend on the thread count).  The limit
is process-wide while a fit runs: fits running concurrently in threads of one process share
it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

__all__ = ["one_blas_thread"]

_controller: Any = None


def _blas_controller() -> Any:
    """A threadpoolctl controller over the BLAS libraries loaded (numpy's and scipy's), made
    once: limiting through it costs microseconds, a new one about a millisecond."""
    global _controller
    if _controller is None:
        import scipy.linalg  # noqa: F401  (scipy's BLAS loaded before the controller looks)
        from threadpoolctl import ThreadpoolController

        _controller = ThreadpoolController()
    return _controller


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS limited to one thread inside the block (restored afterwards)."""
    with _blas_controller().limit(limits=1, user_api="blas"):
        yield
