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

A value is typed by the factor's baseline (SI red team 39, V1-V3; `value_kind`): the shapes
above are what a value may look like, the baseline says what this factor's value is, and a value
of another type gives the factor no working value ("Set INVENTORY_PORT to 0s.", "to 0.0.0.0",
"to checkout-config" of a port whose baseline is 8080):
- a port (a key named `…_PORT` whose baseline, if any, is an integer): an integer 1-65535 that a
  decimal parse and Go's base-0 parse read alike unless it says its base (`_is_port`: "08080",
  "8_080" are refused, "0x1F90" is read; SI red team 41, A11), or an address (`10.0.0.1:587`)
  whose port is one and not the injected port, its host one to reach (not "0.0.0.0");
- an IPv4 address has four octets 0-255, none with a leading zero (`_is_ipv4`: "999.1.1.1" is
  none; SI red team 41, A11);
- a stopped dependency's replica count: an integer as kubectl reads one, 1 to 2^31-1 (the API
  server's int32 refuses `2147483648`);
- an integer, a decimal, a duration, a quantity or a version only where the baseline is one (a
  quantity's baseline takes a plain number too, which is a quantity);
- an address where the baseline is one (an IPv4 address, a `host:port`, or a name of the
  scenario's objects as a host): an object of the scenario as a host only there, and a port in
  it 1-65535;
- a baseline of words (a secret's value) takes any shape above but an object of the scenario; a
  factor of no declared baseline any shape (the types cannot be known: a limit).

A value that keeps the fault (SI red team 38, H2) is no remedy either: the value the injection
put in place, read as Go reads a number (`0x1F91` is 8081), as a decimal (`8081.0`) and as a
Kubernetes quantity (`8.081k` is 8081; SI red team 39, V1), an address whose port is the
injected port where the injection changed the port, and of a stopped dependency any count that
is not one replica or more (`0x0`, `0o0`, `-1`, `0.1`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from decimal import Decimal, InvalidOperation

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


def _is_ipv4(host: str) -> bool:
    """Whether `host` is an IPv4 address as Go's `net.ParseIP` reads one: four decimal octets,
    each 0-255, none with a leading zero (SI red team 41, A11: "999.1.1.1" is no address)."""
    if _IPV4.match(host) is None:
        return False
    return all(int(octet) <= 255 and (octet == "0" or octet[0] != "0") for octet in host.split("."))


def _is_host(host: str, names_object: Callable[[str], bool]) -> bool:
    """Whether `host` is an IPv4 address or a name of the scenario's objects as a host: the
    object's name, then only object names (its namespace) and the cluster's suffix."""
    if _IPV4.match(host) is not None:
        return _is_ipv4(host)
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


# the bounds of what the factor's value is (SI red team 39, V1, V2): a TCP port, and a replica
# count as the API server stores it (`int32`)
_PORT_RANGE = range(1, 65536)
_INT32_MAX = 2**31 - 1
# a key that holds a port ("INVENTORY_PORT", "smtp.port"): its value is a port number
_PORT_NAME = lazy_pattern(r"(?:\A|[_.-])port\Z", re.IGNORECASE | re.ASCII)
_INTEGER = lazy_pattern(r"[-+]?[0-9]+\Z", re.ASCII)
_DURATION_VALUE = lazy_pattern(rf"{_DURATION}\Z", re.ASCII)
_QUANTITY_VALUE = lazy_pattern(rf"{_QUANTITY}\Z", re.ASCII)
_VERSION_VALUE = lazy_pattern(rf"(?:{_VERSION})\Z", re.ASCII)
# a Kubernetes quantity as `resource.ParseQuantity` reads it: a signed decimal, then a binary
# or decimal SI suffix or a decimal exponent ("8.081k" is 8081, "8081m" is 8.081, "8.081e3")
_KUBE_QUANTITY = lazy_pattern(
    r"(?P<number>[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))"
    r"(?P<suffix>[KMGTPE]i|[mkMGTPE]|[eE][-+]?[0-9]{1,3})?\Z",
    re.ASCII,
)
_BINARY = {"Ki": 1, "Mi": 2, "Gi": 3, "Ti": 4, "Pi": 5, "Ei": 6}
_DECIMAL_SI = {"m": -3, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}


def _integer(bare: str) -> int | None:
    """An integer as kubectl's flag parser (`flag_int`) or a decimal reads it."""
    number = flag_int(bare)
    if number is None and _INTEGER.match(bare) is not None:
        number = int(bare)
    return number


def value_kind(
    baseline: str | None,
    subject: str | None = None,
    stopped: bool = False,
    names_object: Callable[[str], bool] = lambda _: False,
) -> str | None:
    """What the factor's value is (module docstring; SI red team 39, V1-V3): "count" of a
    stopped dependency, "port" of a key named as one, else the type of its baseline value
    ("integer", "number", "duration", "quantity", "version", "address", or "text" for words);
    None where no baseline is declared (any value's shape is read)."""
    if stopped:
        return "count"
    bare = None if baseline is None else unicodedata.normalize("NFKC", baseline).strip()
    named_port = subject is not None and _PORT_NAME.search(subject) is not None
    if named_port and (bare is None or _INTEGER.match(bare) is not None):
        return "port"
    if bare is None:
        return None
    for kind, shape in (
        ("integer", _INTEGER),
        ("number", _DECIMAL),
        ("address", _IPV4),
        ("duration", _DURATION_VALUE),
        ("quantity", _QUANTITY_VALUE),
        ("version", _VERSION_VALUE),
    ):
        if shape.match(bare) is not None:
            return kind
    host = bare.rpartition(":")[0] if ":" in bare else bare
    hostlike = "." in host or ":" in bare or names_object(host)
    if bare.isascii() and hostlike and _is_address(bare, lambda _: True):
        return "address"
    return "text"


# a port as a decimal reads it (Go's `strconv.Atoi`: a sign and decimal digits, no separators),
# and Go's literal of another base, which says its base ("0x1F90", "0o17620", "0b…")
_ATOI = lazy_pattern(r"[-+]?[0-9]+\Z", re.ASCII)
_PREFIXED = lazy_pattern(r"[-+]?0[xXoObB]", re.ASCII)
# the host no client reaches: "0.0.0.0" binds every address, it names none to connect to
_UNSPECIFIED = "0.0.0.0"


def _is_port(bare: str) -> bool:
    """Whether `bare` is a port 1-65535 as Go reads an integer (`flag_int`), spelled so that a
    decimal parse (`strconv.Atoi`) reads it alike where it has no base prefix (SI red team 41,
    A11): a ConfigMap holds a string, and the program that reads it may take either; "08080"
    (8080 as a decimal, no octal to base 0), "010" (10 and 8) and "8_080" (no decimal) read
    differently, while "0x1F90" says its base (round 39)."""
    number = flag_int(bare)
    if number is None or number not in _PORT_RANGE:
        return False
    return _PREFIXED.match(bare) is not None or (
        _ATOI.match(bare) is not None and int(bare) == number
    )


def _of_kind(bare: str, kind: str | None, names_object: Callable[[str], bool]) -> bool:
    """Whether `bare`, of a value's shape, is a value of the factor's type `kind`."""
    if kind == "port":
        # a port, or an address whose port is one ("10.0.0.1:587"; `keeps_fault` reads it)
        port = _port_of(bare)
        if port is None:
            return _is_port(bare)
        # "0.0.0.0:8080" names no host to reach (SI red team 41, A11)
        host = bare.rpartition(":")[0]
        return _is_port(port) and host != _UNSPECIFIED and _is_address(bare, names_object)
    if kind in ("count", "integer"):
        return _integer(bare) is not None
    if kind == "number":
        return _is_number(bare)
    if kind == "duration":
        return _DURATION_VALUE.match(bare) is not None
    if kind == "quantity":
        return _QUANTITY_VALUE.match(bare) is not None or _is_number(bare)
    if kind == "version":
        return _VERSION_VALUE.match(bare) is not None
    if kind == "address":
        port = _port_of(bare)
        return _is_address(bare, names_object) and (port is None or _is_port(port))
    # words (a secret's value), or no baseline at all: a value's shape; an object of the
    # scenario only where no baseline says what the value is
    hosts = (lambda _: False) if kind == "text" else names_object
    return _is_number(bare) or _MEASURE.match(bare) is not None or _is_address(bare, hosts)


def reads_as_value(
    token: str,
    baseline: str | None = None,
    names_object: Callable[[str], bool] = lambda _: False,
    kind: str | None = None,
) -> bool:
    """Whether `token`, a value a remedy gives the factor, is of a value's shape and of the
    factor's type `kind` (`value_kind`; module docstring), or the factor's own baseline value
    `baseline` exactly as declared; a name of the scenario (`names_object`) may stand as a
    host where the value is an address."""
    if baseline is not None and _bare(token) == unicodedata.normalize("NFKC", baseline):
        return True
    bare = _bare(token)
    if not bare or not bare.isascii() or any(char.isspace() for char in bare):
        return False
    return _of_kind(bare, kind, names_object)


def _quantity(bare: str) -> Decimal | None:
    """`bare` as Kubernetes reads a quantity (`_KUBE_QUANTITY`), or None."""
    found = _KUBE_QUANTITY.match(bare)
    if found is None:
        return None
    try:
        number = Decimal(found.group("number"))
    except InvalidOperation:
        return None
    suffix = found.group("suffix") or ""
    if suffix in _BINARY:
        return number * Decimal(1024 ** _BINARY[suffix])
    if suffix in _DECIMAL_SI:
        return number.scaleb(_DECIMAL_SI[suffix])
    return number.scaleb(int(suffix[1:])) if suffix else number


def _numbers(bare: str) -> set[Decimal]:
    """Every number a value reads as: as Go reads an integer, as a decimal and as a Kubernetes
    quantity (digits compared exactly, at any length: no rounding to a precision)."""
    found: set[Decimal] = set()
    number = flag_int(bare)
    if number is not None:
        found.add(Decimal(number))
    quantity = _quantity(bare)
    if quantity is not None:
        found.add(quantity)
    return found


def _port_of(bare: str) -> str | None:
    host, colon, port = bare.rpartition(":")
    return port if colon and host and port else None


def same_value(token: str, other: str) -> bool:
    """Whether two values read the same: as written (case folded) or as a number (`_numbers`)."""
    bare, theirs = _bare(token), _bare(other)
    return bare.casefold() == theirs.casefold() or bool(_numbers(bare) & _numbers(theirs))


def gives_baseline(token: str, baseline: str) -> bool:
    """Whether the value `token` is the factor's declared healthy baseline `baseline`, in any
    spelling (`same_value`: "8080", "0x1F90", "1e0" replicas) or as an address on the
    baseline's port ("inventory:8080"; SI red team 40, H5: "Set INVENTORY_PORT to 443." gives
    a port, but not the one the baseline declares)."""
    if same_value(token, baseline):
        return True
    port = _port_of(_bare(token))
    healthy = _port_of(_bare(baseline)) or _bare(baseline)
    return port is not None and bool(_numbers(port) & _numbers(healthy))


def keeps_fault(
    token: str, injected: str | None, stopped: bool, baseline: str | None = None
) -> bool:
    """Whether the value `token` keeps the fault: it reads as the value the injection put in
    place (`injected`) — as written (case folded) or as a number (`_numbers`) — or is an
    address on the injected port where the injection changed the port (`baseline` the healthy
    value); or, of a stopped dependency (`stopped`), it is no count of one replica or more, or
    more than the API server stores, as kubectl reads one."""
    bare = _bare(token)
    if injected is not None:
        wrong = _bare(injected)
        if same_value(bare, wrong):
            return True
        port, wrong_port = _port_of(bare), _port_of(wrong) or wrong
        healthy = None if baseline is None else _port_of(_bare(baseline)) or _bare(baseline)
        if port is not None and healthy != wrong_port and _numbers(port) & _numbers(wrong_port):
            return True
    if not stopped:
        return False
    count = flag_int(bare)
    return count is None or not 1 <= count <= _INT32_MAX


__all__ = ["gives_baseline", "keeps_fault", "reads_as_value", "same_value", "value_kind"]
