"""The value a remedy gives the factor, read as a value or not at all (docs/si-scoring.md §11,
"Round 38 (continued): a remedy's value, particle and objects"; SI red team 37, W1-W3;
SI red team 38, W2, H1, H2).

A value is one of a closed set of shapes (SI red team 38, H1: "DB_PASSWORD=notTheCause",
"=probably/not/the/cause", "=not+the+cause", 'to "not‐the‐cause"', "=maybe", "=RedHerring"
were each one token of words, and any rule that lists how words are joined — hyphens,
underscores, then slashes, plus signs, camel case, Unicode dashes — leaves the next joiner open):
- a decimal number (`8080`, `0.5`), or an integer as kubectl's flag parser reads one
  (`_go_int.flag_int`: `0x1F91`, `5_000`);
- a duration (`30s`, `1h30m`), a quantity (`512Mi`, `500m`) or a version (`v7`, `1.2.3`);
- an address: an IPv4 address, or a name of the scenario's own objects as a host
  (`inventory`, `inventory.shop.svc.cluster.local`), either with a port (`10.0.0.1:587`); a
  name on the public internet is none (`smtp.example.com` is refused with `not.the.cause.com`:
  no closed rule tells a host's labels from words);
- the scenario's own baseline value of the factor (the injection manifest's `baseline`,
  `BoundFactor.baseline_value`: `s3cr3t-rotated-2026`), exactly as declared.
Anything else — a word, or words however joined — is no value
(fail closed: a value that is not recognisably a value is no plain remedy). The text is read in
NFKC, so a full-width `０` is `0`, and the shapes are ASCII, so `٠` (Arabic-Indic zero) is no
value.

A value that keeps the fault (SI red team 38, H2) is no remedy either: the value the injection
put in place, read as Go reads a number (`0x1F91` is 8081) and as a decimal (`8081.0`), and of a
stopped dependency any count that is not one replica or more (`0x0`, `0o0`, `-1`, `0.1`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._go_int import flag_int

_QUOTES = "\"'`“‘”’"
# a decimal number ("0.5", "16.4", digits of any length); Go's spellings of an integer
# ("0x1F91", "5_000") are read by `flag_int`
_DECIMAL = lazy_pattern(r"[-+]?[0-9]+(?:\.[0-9]+)?\Z", re.ASCII)
# a Go duration ("30s", "1h30m", "250ms"), a Kubernetes quantity ("512Mi", "500m", "2G"), a
# version ("v7", "v1.2", "1.2.3"); ASCII digits only
_DURATION = r"(?:[0-9]+(?:\.[0-9]+)?(?:ns|us|ms|s|m|h))+"
_QUANTITY = r"[0-9]+(?:\.[0-9]+)?(?:[KMGTPE]i|[kMGTPE]|m)"
_VERSION = r"v[0-9]+(?:\.[0-9]+)*|[0-9]+(?:\.[0-9]+){2,3}"
_MEASURE = lazy_pattern(rf"(?:{_DURATION}|{_QUANTITY}|{_VERSION})\Z", re.ASCII)
# an address: an IPv4 address or a host name of labels, with an optional port
_IPV4 = lazy_pattern(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}\Z", re.ASCII)
_LABEL = lazy_pattern(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\Z", re.ASCII)
_PORT = lazy_pattern(r"[0-9]{1,5}\Z", re.ASCII)
# the in-cluster suffix of a service's name ("inventory.shop.svc.cluster.local")
_CLUSTER_SUFFIX = ("svc", "cluster", "local")


def _bare(token: str) -> str:
    """A value as written, in NFKC, its quotes and a sentence's stop dropped."""
    return unicodedata.normalize("NFKC", token).strip(_QUOTES).rstrip(".").strip(_QUOTES)


def _is_number(bare: str) -> bool:
    return flag_int(bare) is not None or _DECIMAL.match(bare) is not None


def _is_host(host: str, names_object: Callable[[str], bool]) -> bool:
    """Whether `host` is an IPv4 address or a name of the scenario's objects as a host: the
    object's name, then only object names (its namespace) and the cluster's suffix."""
    if _IPV4.match(host) is not None:
        return True
    labels = host.split(".")
    if not all(_LABEL.match(label) for label in labels):
        return False
    while labels and labels[-1] in _CLUSTER_SUFFIX and len(labels) > 1:
        labels.pop()
    return all(names_object(label) for label in labels)


def _is_address(bare: str, names_object: Callable[[str], bool]) -> bool:
    host, colon, port = bare.rpartition(":")
    if not colon:
        return _is_host(bare, names_object)
    return _PORT.match(port) is not None and _is_host(host, names_object)


def reads_as_value(
    token: str, baseline: str | None = None, names_object: Callable[[str], bool] = lambda _: False
) -> bool:
    """Whether `token`, a value a remedy gives the factor, is of a value's shape (module
    docstring), or the factor's own baseline value `baseline` exactly as declared; a name of
    the scenario (`names_object`) may stand as a host."""
    if baseline is not None and _bare(token) == unicodedata.normalize("NFKC", baseline):
        return True
    bare = _bare(token)
    if not bare or not bare.isascii() or any(char.isspace() for char in bare):
        return False
    return _is_number(bare) or _MEASURE.match(bare) is not None or _is_address(bare, names_object)


def _readings(token: str) -> set[str]:
    """Every way a value reads: as written (case folded), as Go reads an integer, as a decimal
    (digits compared exactly, at any length: no rounding to a precision)."""
    bare = _bare(token).casefold()
    found = {bare}
    number = flag_int(bare)
    if number is not None:
        found.add(str(number))
    if _DECIMAL.match(bare) is not None:
        whole, _, part = bare.lstrip("+-").partition(".")
        value = (whole.lstrip("0") or "0") + ("." + part.rstrip("0") if part.rstrip("0") else "")
        found.add(value if value == "0" or not bare.startswith("-") else "-" + value)
    return found


def keeps_fault(token: str, injected: str | None, stopped: bool) -> bool:
    """Whether the value `token` keeps the fault: it reads as the value the injection put in
    place (`injected`), or, of a stopped dependency (`stopped`), it is no count of one replica
    or more as kubectl reads one."""
    if injected is not None and _readings(token) & _readings(injected):
        return True
    if not stopped:
        return False
    count = flag_int(_bare(token))
    return count is None or count < 1


__all__ = ["keeps_fault", "reads_as_value"]
