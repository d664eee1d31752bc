"""provebench: deterministic evaluation of AI agents and automation code from recorded evidence.

The public face of each area lives in its subpackage (`provebench.si`, `provebench.evidence`,
`provebench.ledger`, `provebench.pilot`); this module only carries the package version.
"""

# The one place the version is written: the build reads it from here (pyproject.toml,
# [tool.hatch.version]). Asking the installed metadata instead (importlib.metadata) costs
# about 40 ms at every start of the command line.
__version__ = "0.1.0"

__all__ = ["__version__"]
