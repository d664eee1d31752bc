"""Both estates hold a Secret as Kubernetes does (issue 44; docs/si-profile.md, "Secrets"): a
declared `data` value is base64 of the bytes and is shown as declared, `stringData` is merged
into `data` encoded, a process reads the decoded value, a write is stored as the API server
stores it, and a `data` value that is not base64 is refused naming its field. The physical
estate took the declared base64 for the plain value: its read showed the base64 of the base64
and `exec env` printed the declared string."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.si.sim import Session
from provebench.si.sim._estate import Estate
from provebench.si.sim.declared import DeclaredSession
from tests.si.sim.sim_helpers import MISLEADING, edited_file, variant
from tests.si.sim.sim_helpers import SECRET as SINGLE_SECRET

PASSWORD = "super-secret-password"
STORED = "c3VwZXItc2VjcmV0LXBhc3N3b3Jk"  # PASSWORD's base64, as a scenario declares it
SECRET = {"resource": "secret/db", "type": "Opaque", "data": {"PASSWORD": STORED}}
POD = {
    "resource": "pod/api-server-7d9f4",
    "env": {"DB_PASSWORD": {"valueFrom": {"secretKeyRef": {"name": "db", "key": "PASSWORD"}}}},
}


def _scenario(*entries: dict[str, Any]) -> Any:
    def edit(data: dict[str, Any]) -> None:
        data["preconditions"]["environment"]["state"].extend(dict(e) for e in entries)

    return variant(MISLEADING, edit)


def _sessions(*entries: dict[str, Any]) -> dict[str, Any]:
    scenario = _scenario(*entries)
    return {"physical": Session.start(scenario), "declared": DeclaredSession(scenario)}


def _call(session: Any, tool: str, **arguments: Any) -> Any:
    response = session.call(tool, arguments)
    assert response.error is None, response.body
    text = response.body
    return json.loads(text) if text.lstrip().startswith("{") else text


def _data(session: Any, name: str = "db") -> dict[str, str]:
    shown: dict[str, str] = _call(session, "orchestration_get", kind="secret", name=name)["data"]
    return shown


@pytest.mark.parametrize("estate", ["physical", "declared"])
def test_a_secret_is_shown_as_declared_and_a_process_reads_it_decoded(estate: str) -> None:
    session = _sessions(SECRET, POD)[estate]
    assert _data(session) == {"PASSWORD": STORED}  # not its base64 again
    env = _call(session, "orchestration_exec", pod="api-server-7d9f4", command=["env"])
    assert f"DB_PASSWORD={PASSWORD}" in env.splitlines()


def test_describe_counts_the_decoded_bytes() -> None:
    from provebench.si.sim._render import describe_resource

    session = _sessions(SECRET)["physical"]
    described = describe_resource(session.observation, "secret/default/db")
    assert f"PASSWORD:  {len(PASSWORD)} bytes" in described


@pytest.mark.parametrize("estate", ["physical", "declared"])
def test_declared_string_data_is_merged_into_data_encoded(estate: str) -> None:
    secret = {**SECRET, "data": {"PASSWORD": "b2xk", "USER": "YWRtaW4="}}
    secret["stringData"] = {"PASSWORD": PASSWORD, "TOKEN": "t0ken"}
    session = _sessions(secret, POD)[estate]
    # its key wins over the same data key; stringData is never shown
    assert _data(session) == {"PASSWORD": STORED, "TOKEN": "dDBrZW4=", "USER": "YWRtaW4="}
    env = _call(session, "orchestration_exec", pod="api-server-7d9f4", command=["env"])
    assert f"DB_PASSWORD={PASSWORD}" in env.splitlines()


@pytest.mark.parametrize("estate", ["physical", "declared"])
def test_a_patch_is_stored_as_the_api_server_stores_it(estate: str) -> None:
    session = _sessions(SECRET, POD)[estate]
    patch = {"data": {"USER": "YWRtaW4="}, "stringData": {"PASSWORD": "rotated"}}
    _call(session, "orchestration_patch", kind="secret", name="db", patch=patch)
    assert _data(session) == {"PASSWORD": "cm90YXRlZA==", "USER": "YWRtaW4="}
    env = _call(session, "orchestration_exec", pod="api-server-7d9f4", command=["env"])
    assert "DB_PASSWORD=rotated" in env.splitlines()
    # a data value that is not base64 is refused, and nothing of the patch is written
    bad = {"data": {"PASSWORD": "rotated-again"}}
    refused = session.call("orchestration_patch", {"kind": "secret", "name": "db", "patch": bad})
    assert refused.error is not None and "data.PASSWORD" in refused.body
    assert _data(session) == {"PASSWORD": "cm90YXRlZA==", "USER": "YWRtaW4="}


@pytest.mark.parametrize(
    ("fields", "field", "why"),
    [
        ({"data": {"PASSWORD": PASSWORD}}, "state[0].data.PASSWORD", "is not base64"),
        ({"data": {"PASSWORD": "c3VwZXI"}}, "state[0].data.PASSWORD", "is not base64"),
        ({"data": {"PASSWORD": "payments"}}, "state[0].data.PASSWORD", "not UTF-8 text"),
        ({"data": {"PASSWORD": 7}}, "state[0].data.PASSWORD", "must be a string"),
        ({"stringData": {"PASSWORD": 7}}, "state[0].stringData.PASSWORD", "must be a string"),
        ({"data": ["x"]}, "state[0].data", "mapping"),
    ],
)
def test_a_value_the_api_server_refuses_is_refused_naming_its_field(
    fields: dict[str, Any], field: str, why: str
) -> None:
    entry = {"resource": "secret/db", **fields}
    with pytest.raises(ProvebenchError) as raised:
        Estate.from_entries([entry], field="state")
    assert raised.value.field == field and why in raised.value.message


def test_si_check_refuses_a_scenario_whose_secret_data_is_not_base64(tmp_path: Path) -> None:
    # the shipped scenario declares its Secret as stringData; written as plain `data` it is
    # what the physical estate used to take for the plain value
    bad = edited_file(
        tmp_path,
        SINGLE_SECRET,
        ("stringData: {DB_USER: payments}", "data: {DB_USER: payments}"),
    )
    for args in (["check", str(bad)], ["check", "--estate", str(bad)]):
        done = subprocess.run(
            [sys.executable, "-m", "provebench", "si", *args],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 2, done.stdout
        (line,) = done.stderr.splitlines()
        assert "preconditions.environment.state[1].data.DB_USER" in line, line
        assert "Traceback" not in done.stderr


def test_a_secret_deviation_s_value_is_base64_too() -> None:
    from provebench.si.sim._inject import build_scene

    def edit(data: dict[str, Any]) -> None:
        deviation = data["injection"]["deviations"][0]
        deviation.update(deviation_type="wrong_value", value="not base64!")

    with pytest.raises(ProvebenchError) as raised:
        build_scene(variant(SINGLE_SECRET, edit))
    assert raised.value.field is not None and raised.value.field.endswith(".value")


def test_a_created_secret_is_stored_as_the_api_server_stores_it() -> None:
    # the declared estate creates objects (the physical estate refuses every create)
    session = _sessions(POD)["declared"]
    fields = {"type": "Opaque", "data": {"USER": "YWRtaW4="}, "stringData": {"PASSWORD": PASSWORD}}
    _call(session, "orchestration_create", kind="secret", name="db", fields=fields)
    assert _data(session) == {"PASSWORD": STORED, "USER": "YWRtaW4="}
    env = _call(session, "orchestration_exec", pod="api-server-7d9f4", command=["env"])
    assert f"DB_PASSWORD={PASSWORD}" in env.splitlines()
    bad = {"data": {"PASSWORD": PASSWORD}}
    refused = session.call("orchestration_create", {"kind": "secret", "name": "x", "fields": bad})
    assert refused.error is not None and "data.PASSWORD" in refused.body


@pytest.mark.parametrize("estate", ["physical", "declared"])
def test_a_manifest_with_string_data_is_stored_in_data_encoded(estate: str) -> None:
    # the object a `kubectl apply` of a manifest writes, its stringData plain (the declared
    # estate refused it 422 as a field it could not write)
    session = _sessions(SECRET, POD)[estate]
    manifest = {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "db"},
        "stringData": {"PASSWORD": "rotated"},
    }
    _call(session, "orchestration_patch", kind="secret", name="db", patch=manifest)
    assert _data(session) == {"PASSWORD": "cm90YXRlZA=="}
    env = _call(session, "orchestration_exec", pod="api-server-7d9f4", command=["env"])
    assert "DB_PASSWORD=rotated" in env.splitlines()
