"""provebench.si (public names are re-exported here as the package grows)."""

__all__: list[str] = []
