"""provebench: deterministic evaluation of AI agents and automation code from recorded evidence.

The public face of each area lives in its subpackage (`provebench.si`, `provebench.evidence`,
`provebench.ledger`, `provebench.pilot`); this module only carries the package version.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("provebench")
except PackageNotFoundError:  # running from a source tree without an install
    __version__ = "0.0.0"

__all__ = ["__version__"]
