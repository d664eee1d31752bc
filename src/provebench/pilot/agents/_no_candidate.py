"""provebench's own importer classes that hold no candidate, and the one rule that finds them in a
class: the model client (`OpenAIImporter`, whose candidate is the model behind its endpoint)
and the relays (the MCP desk of `pilot serve --mcp`, the sandbox's relay to a sealed
candidate), whose candidate is the client or program they relay to. No seal holds that
candidate, so no seal and no sandboxed run may name such a class as "the candidate"
(docs/attestation.md, "What a seal can hold"; docs/sandbox.md, "What the loader refuses").

The rule is read on the class objects, never on a look-up made after the candidate's code ran
(pilot red team 33, A3: `class Model(OpenAIImporter)`, then
`del sys.modules["provebench.pilot.agents._openai"]`, hid the base from a look-up in
`sys.modules` made afterwards): the classes held before the candidate's module runs, by
identity, and every class by the module and name it was defined with.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

from provebench._errors import ProvebenchError

MODEL_CLIENT = ("provebench.pilot.agents._openai:OpenAIImporter",)
RELAYS = (
    "provebench.pilot.agents._mcp_serve:DeskImporter",
    "provebench.pilot.agents._sandboxed:SandboxedImporter",
)
NO_CANDIDATE = (*MODEL_CLIENT, *RELAYS)


class HoldsNoCandidate(ProvebenchError):
    """The loader's refusal of such a class, told apart from its other refusals: `pilot seal`
    refuses it at sealing, as every run of the seal would (`pilot._seal`)."""


# Read with `type`'s own descriptors: a metaclass of the candidate's may define `__mro__` or
# `__bases__` as properties of its own, which a plain attribute read would return instead.
_MRO = type.__dict__["__mro__"]
_BASES = type.__dict__["__bases__"]
_MODULE = type.__dict__["__module__"]
_QUALNAME = type.__dict__["__qualname__"]


def no_candidate_classes(names: tuple[str, ...] = NO_CANDIDATE) -> tuple[type, ...]:
    """The classes `names` names, imported (their modules load the laboratory's machinery: the
    sandbox's loader takes them once a run, when it identifies the class, not every cycle)."""
    held = []
    for name in names:
        module, _, qualname = name.partition(":")
        held.append(getattr(importlib.import_module(module), qualname))
    return tuple(held)


def made_from(
    candidate: object, names: tuple[str, ...] = NO_CANDIDATE, held: tuple[type, ...] = ()
) -> str | None:
    """The `module:Class` of `names` that `candidate` is or is made from, or None: any class in
    its method resolution order or among its bases, each read as `type` reads it, that is one
    of `held` (the very objects, taken before the candidate's code ran) or that was defined
    with one of `names`' module and name (a candidate that drops the module from `sys.modules`
    and imports it again gets a second class object of the same code).

    What this does not mean: a class of the candidate's that *uses* the model client (creates
    one in `run_cycle`) or copies its source is the candidate's own code, sealed by its bytes
    like any other; and a candidate's process can answer its loader's questions itself. The
    rule keeps provebench's own client and relays from being named as a candidate; it is not
    the sandbox's boundary (docs/sandbox.md, "What the loader refuses")."""
    if not isinstance(candidate, type):
        return None
    wanted = set(names)
    by_identity = {id(each): f"{_MODULE.__get__(each)}:{_QUALNAME.__get__(each)}" for each in held}
    for each in _every_class(candidate):
        if id(each) in by_identity:
            return by_identity[id(each)]
        defined_as = f"{_module_of(each)}:{_QUALNAME.__get__(each)}"
        if defined_as in wanted:
            return defined_as
    return None


def _every_class(candidate: type) -> Iterator[type]:
    """`candidate`, its method resolution order and every class among its bases, each once."""
    seen: set[int] = set()
    waiting = [candidate, *_MRO.__get__(candidate)]
    while waiting:
        each = waiting.pop()
        if id(each) in seen or not isinstance(each, type):
            continue
        seen.add(id(each))
        yield each
        waiting.extend(_BASES.__get__(each))


def _module_of(each: type) -> object:
    # A class's `__module__` is an entry of its `__dict__`, which the class may have set to
    # anything, or removed: then it names no module of provebench's.
    try:
        return _MODULE.__get__(each)
    except AttributeError:
        return None


__all__ = [
    "MODEL_CLIENT",
    "NO_CANDIDATE",
    "RELAYS",
    "HoldsNoCandidate",
    "made_from",
    "no_candidate_classes",
]
