"""Compiled kernels built on first use: :class:`~clusteragree.compiled.Compiled`, the loader
every compiled kernel of the package uses (the core's, the domains' and the readers'), lives
beside the ledger so that the readers, which import no core, share it.

References
----------
docs/performance.md ("How the fast paths work").
"""

from __future__ import annotations

from ..compiled import Compiled

__all__ = ["Compiled"]
