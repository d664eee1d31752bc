"""A decision-table call that names an unbound role fails closed with a one-line error."""

import pytest

from provebench._errors import ProvebenchError
from provebench.si import bind_scoring, load_scenarios, parse_predicate


def _bound():
    from importlib.resources import files

    path = files("provebench.si") / "scenarios" / "diagnostic-accuracy.yaml"
    (scenario,) = load_scenarios(str(path))
    return bind_scoring(scenario)


def test_unbound_role_is_a_configuration_error() -> None:
    call = parse_predicate(
        {"call": "named_in_output", "with": {"identifier_set": "$nope", "channels": "$channels"}}
    )
    with pytest.raises(ProvebenchError, match=r"role \$nope is not bound"):
        _bound().arguments(call)
