"""clusteragree: inter-annotator agreement when annotations are structure.

Clusters (pyramid SCUs, coreference chains), sets of labels and trees, scored with
Krippendorff's alpha and the measures of the papers that introduced them.

Examples
--------
>>> import clusteragree as ca
>>> table = ca.CodingTable.from_records([("A", 1, {"x"}), ("B", 1, {"x"}),
...                                      ("A", 2, {"y"}), ("B", 2, {"y", "z"})])
>>> round(ca.alpha(table, distance="jaccard").alpha, 4)
0.6667
"""

from typing import TYPE_CHECKING

from ._lazy import attach
from ._version import __version__
from .errors import (
    AlphaUndefinedWarning,
    ClusterAgreeError,
    InputError,
    InputWarning,
    ParameterError,
    ParameterTypeError,
)

if TYPE_CHECKING:
    from .core.coefficient import AlphaResult, alpha, alpha_many, alpha_stats
    from .core.distances import DISTANCES, Distance, get_distance, set_distance
    from .core.frames import alpha_report
    from .core.model import CodingTable

_CORE = {
    "AlphaResult": "coefficient", "alpha": "coefficient", "alpha_many": "coefficient",
    "alpha_stats": "coefficient", "DISTANCES": "distances", "Distance": "distances",
    "get_distance": "distances", "set_distance": "distances", "alpha_report": "frames",
    "CodingTable": "model",
}
__getattr__, __dir__ = attach(__name__, {name: f".core.{module}" for name, module in
                                         _CORE.items()})

__all__ = [
    "DISTANCES",
    "AlphaResult",
    "AlphaUndefinedWarning",
    "ClusterAgreeError",
    "CodingTable",
    "Distance",
    "InputError",
    "InputWarning",
    "ParameterError",
    "ParameterTypeError",
    "__version__",
    "alpha",
    "alpha_many",
    "alpha_report",
    "alpha_stats",
    "get_distance",
    "set_distance",
]
