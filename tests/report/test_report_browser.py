"""Reports in a real browser: Debian's Chromium driven by Playwright for Python (its executable
given explicitly; no browser is downloaded). `.ci/run` installs Chromium before `make test`; a
machine without it skips these tests and says why.

Each report loads with no console error (the page's CSP forbids every script and resource, so a
violation would be one), shows the reason sentences under the banner, and draws its plots with
non-empty boxes. Full-page screenshots are kept as artifacts: in $PROVEBENCH_TEST_ARTIFACTS when
set, else in the test's temporary folder.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from provebench.report import write_report

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",  # the test may run as root; the page is our own report, scripts forbidden
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
if not Path(CHROMIUM).is_file():
    pytest.skip(
        f"no Chromium at {CHROMIUM}: install Debian's chromium (.ci/run does) to run the "
        "browser tests",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


def _artifacts(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("PROVEBENCH_TEST_ARTIFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _shown(browser: Any, source: Path, report: Path, screenshot: Path) -> Any:
    """The report of `source`, written to `report` and open in the browser with no console
    error or warning, page error or failed request."""
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems: list[str] = []
    page.on(
        "console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None
    )
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("requestfailed", lambda request: problems.append(f"request {request.url}"))
    page.goto(write_report(source, report).as_uri())
    _screenshot(page, screenshot)
    assert problems == [], source
    return page


def _screenshot(page: Any, path: Path) -> None:
    """The full-page screenshot kept as an artifact. Chromium sometimes answers "Unable to
    capture screenshot" on a loaded machine (nothing about the page): one more try after a
    moment, then the error stands."""
    from playwright.sync_api import Error

    try:
        page.screenshot(path=str(path), full_page=True)
    except Error:
        page.wait_for_timeout(500)
        page.screenshot(path=str(path), full_page=True)


def _assert_drawn(charts: list[Any], name: str) -> None:
    """Each plot has a box a reader can see (an SVG that failed to lay out has none)."""
    for chart in charts:
        box = chart.bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 50, name


@pytest.mark.parametrize("name", ["reference", "noop", "deletes_an_error", "incomplete_run"])
def test_a_pilot_report_shows_why_and_its_plots(
    browser: Any, pilot_verdicts: dict[str, Path], tmp_path: Path, name: str
) -> None:
    page = _shown(
        browser,
        pilot_verdicts[name],
        tmp_path / f"{name}.html",
        _artifacts(tmp_path) / f"pilot-{name}.png",
    )
    why = page.locator("#why li")
    assert why.count() >= 1 and why.first.is_visible()
    banner_bottom = page.locator(".headline").bounding_box()["y"] + 1
    assert page.locator("#why").bounding_box()["y"] >= banner_bottom  # right under the banner
    assert page.evaluate("document.documentElement.scrollWidth") <= 1200  # no sideways scroll
    charts = page.locator("svg.chart")
    if name == "incomplete_run":
        assert charts.count() == 0  # no metrics were computed, so nothing is plotted
        assert "configuration error" in why.first.inner_text()
        return
    assert charts.count() == 4  # completeness, register defects, faults, escrow
    _assert_drawn(charts.all(), name)
    assert page.locator("svg.chart rect").count() > 3
    page.close()


def test_the_reason_names_the_caught_attack(
    browser: Any, pilot_verdicts: dict[str, Path], tmp_path: Path
) -> None:
    page = _shown(
        browser,
        pilot_verdicts["deletes_an_error"],
        tmp_path / "attack.html",
        _artifacts(tmp_path) / "pilot-attack-why.png",
    )
    first = page.locator("#why li").first
    assert "critical violation" in first.inner_text()
    first.locator("a").click()
    assert page.url.endswith("#violations")
    page.close()


@pytest.mark.parametrize("agent", ["diagnoser", "noop", "quotation-gamer"])
def test_an_si_report_shows_the_deciding_row(
    browser: Any, si_verdicts: dict[str, Path], tmp_path: Path, agent: str
) -> None:
    page = _shown(
        browser,
        si_verdicts[agent],
        tmp_path / f"si-{agent}.html",
        _artifacts(tmp_path) / f"si-{agent}.png",
    )
    text = page.locator("#why li").first.inner_text()
    assert text.startswith("Row ") and "matched first" in text
    verdict = json.loads(si_verdicts[agent].read_text(encoding="utf-8"))
    decided_by_a_primitive = any(
        e["row"] == verdict["matched_row"]["id"] for e in verdict["evaluations"]
    )  # else the row is `otherwise`, which calls none
    assert (page.locator("tr.matched").count() >= 1) == decided_by_a_primitive
    if agent == "quotation-gamer":  # its quoted tool output, struck through as echo
        struck = page.locator("pre.answer del")
        assert struck.count() >= 1 and struck.first.is_visible()
    page.close()


def test_the_red_team_and_suite_reports_render_in_the_browser(
    browser: Any, red_team_run: Any, suite_folders: dict[str, Path], tmp_path: Path
) -> None:
    folders = {"redteam": red_team_run.out, **{f"suite-{k}": v for k, v in suite_folders.items()}}
    for name, folder in folders.items():
        page = _shown(
            browser, folder, tmp_path / f"{name}.html", _artifacts(tmp_path) / f"{name}.png"
        )
        assert page.locator("#why li").first.is_visible(), name
        charts = page.locator("svg.chart").all()
        assert charts, name
        _assert_drawn(charts, name)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 1200, (name, width)  # wide tables scroll in their box, not the page
        page.close()


def test_a_control_runs_report_fits_in_a_few_screens_before_its_folds(
    browser: Any, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from provebench.cli import app

    corpus, run = tmp_path / "control", tmp_path / "run"
    for arguments in (
        ["pilot", "generate", "--seed", "7", "--profile", "control", "--out", str(corpus)],
        ["pilot", "run", "--corpus", str(corpus), "--agent", "reference", "--out", str(run),
         "--quiet"],
        ["pilot", "evaluate", str(run), "--corpus", str(corpus)],
    ):  # fmt: skip
        assert CliRunner().invoke(app, arguments).exit_code == 0, arguments
    page = _shown(
        browser, run, tmp_path / "control.html", _artifacts(tmp_path) / "pilot-control.png"
    )
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 5 * 900, height  # the detail is folded; each fold opens on a click
    folds = page.locator("details")
    assert folds.count() >= 5
    folds.first.locator("summary").click()
    assert page.evaluate("document.documentElement.scrollHeight") > height
    page.close()


def test_the_matrix_report_draws_its_pass_hat_k_curve(browser: Any, tmp_path: Path) -> None:
    from tests.report.test_report_matrix import matrix_summary

    folder = tmp_path / "matrix"
    folder.mkdir()
    (folder / "summary.json").write_text(json.dumps(matrix_summary()), encoding="utf-8")
    page = _shown(browser, folder, tmp_path / "matrix.html", _artifacts(tmp_path) / "matrix.png")
    assert page.locator("#why li").first.is_visible()
    charts = page.locator("svg.chart").all()
    assert len(charts) == 2
    _assert_drawn(charts, "matrix")
    assert page.locator("svg.chart polyline").count() == 2
    page.close()


def test_nothing_due_is_drawn_grey_and_labelled_never_as_a_success_bar(
    browser: Any, pilot_verdicts: dict[str, Path], tmp_path: Path
) -> None:
    verdict = json.loads(pilot_verdicts["noop"].read_text(encoding="utf-8"))
    vacuous = [
        str(c["cycle"])
        for c in verdict["metrics"]["per_cycle"]
        if c["metrics"]["completeness"]["vacuous"]
    ]
    assert vacuous  # the noop's first cycle has nothing due yet
    page = _shown(
        browser,
        pilot_verdicts["noop"],
        tmp_path / "noop-due.html",
        _artifacts(tmp_path) / "pilot-noop-nothing-due.png",
    )
    chart = page.locator("svg.chart").first
    assert "Completeness" in (chart.locator("title").first.text_content() or "")
    boxes = chart.locator("rect.nothing-due")
    assert boxes.count() == len(vacuous) + 1  # one per vacuous cycle, one in the legend
    assert boxes.first.is_visible()
    fill = boxes.first.evaluate("node => getComputedStyle(node).fill")
    good = page.locator("svg.chart rect.good").first.evaluate("node => getComputedStyle(node).fill")
    assert fill != good  # not the success colour
    assert "nothing due" in (chart.text_content() or "")
    tips = [t.text_content() or "" for t in chart.locator("rect.good title").all()]
    assert not any(tip.endswith(f" {cycle}: 1") for tip in tips for cycle in vacuous)
    page.close()


def test_an_si_report_says_why_each_higher_row_failed(
    browser: Any, si_verdicts: dict[str, Path], tmp_path: Path
) -> None:
    page = _shown(
        browser,
        si_verdicts["noop"],
        tmp_path / "si-why.html",
        _artifacts(tmp_path) / "si-noop-why.png",
    )
    verdict = json.loads(si_verdicts["noop"].read_text(encoding="utf-8"))
    matched = verdict["matched_row"]["id"]
    higher = sorted({e["row"] for e in verdict["evaluations"] if e["row"] < matched})
    items = [li.inner_text() for li in page.locator("#why li").all()]
    assert items[0].startswith(f"Row {matched} ")
    assert [item.split(" ")[1] for item in items[1:]] == [str(row) for row in higher]
    assert all("did not hold" in item for item in items[1:])
    assert any("SMTP_PORT not named" in item for item in items)
    assert page.locator("#why li").nth(1).is_visible()
    page.close()
