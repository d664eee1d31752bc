# The compiled merge of the Drive's listing order (_listorder.c, built by hatch_build.py); absent
# where no C compiler was at hand, and then `DriveState.settle` sorts in Python.
from typing import Any

def merge_tail(ids: list[str], files: list[Any], start: int, /) -> bool: ...
