"""provebench inside other evaluation frameworks. Each integration is an optional extra and is
imported only when used (`provebench[inspect]`: Inspect AI)."""
