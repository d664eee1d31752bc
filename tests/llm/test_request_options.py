"""The request options (`--max-tokens`, `--request-timeout`, `--max-retries`) are declared once
(`llm._options.request_options`) and each command keeps its own defaults: SI 2,048 tokens, the
pilot 8,192."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from provebench.llm._endpoint import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_REQUEST_TIMEOUT_SEC,
    RequestSettings,
)
from provebench.llm._options import (
    DEFAULT_REQUEST_SETTINGS,
    PILOT_REQUEST_SETTINGS,
    request_options,
)
from provebench.pilot._cli import run_command as pilot_run
from provebench.si._run_cli import run_command as si_run
from provebench.si.suite._cli import suite_command as si_suite

NAMES = ("max_tokens", "request_timeout", "max_retries")


@pytest.mark.parametrize(
    ("command", "tokens", "next_option"),
    [
        (pilot_run, 8192, "model_cmd"),
        (si_run, 2048, "scenario_id"),
        (si_suite, 2048, "sandbox_memory"),
    ],
)
def test_each_command_keeps_its_defaults_and_the_options_stand_where_request_stood(
    command: Any, tokens: int, next_option: str
) -> None:
    # Where the three options stood before the fold: the help lists them in the same place.
    names = list(inspect.signature(command).parameters)
    assert "request_settings" not in names
    at = names.index("max_tokens")
    assert tuple(names[at : at + 3]) == NAMES
    assert names[at - 1] == "base_url" and names[at + 3] == next_option
    defaults = [inspect.signature(command).parameters[n].default for n in NAMES]
    assert defaults == [tokens, DEFAULT_REQUEST_TIMEOUT_SEC, DEFAULT_MAX_RETRIES]


def test_the_command_receives_the_three_options_as_one_value() -> None:
    app = typer.Typer()
    seen: list[tuple[str, RequestSettings]] = []

    @app.command()
    @request_options
    def command(
        before: str = "a",
        request_settings: RequestSettings = PILOT_REQUEST_SETTINGS,
        after: str = "b",
    ) -> None:
        seen.append((before + after, request_settings))

    runner = CliRunner()
    assert runner.invoke(app, []).exit_code == 0
    assert (
        runner.invoke(
            app,
            ["--max-tokens", "5", "--request-timeout", "9", "--max-retries", "1", "--after", "z"],
        ).exit_code
        == 0
    )
    assert runner.invoke(app, ["--max-tokens", "0"]).exit_code == 2  # the range still holds
    assert seen == [
        ("ab", PILOT_REQUEST_SETTINGS),
        ("az", RequestSettings(max_tokens=5, request_timeout_sec=9.0, max_retries=1)),
    ]
    assert DEFAULT_REQUEST_SETTINGS.max_tokens == 2048
    assert PILOT_REQUEST_SETTINGS.max_tokens == 8192
