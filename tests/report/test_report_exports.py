"""Public names resolve lazily; the command module loads without Jinja2."""

from __future__ import annotations

import subprocess
import sys

import provebench.report as report_package


def test_every_public_name_resolves():
    assert sorted(report_package.__all__) == dir(report_package)
    for name in report_package.__all__:
        assert getattr(report_package, name) is not None, name


def test_command_module_does_not_import_jinja2():
    probe = "import sys, provebench.report._cli; print('jinja2' in sys.modules)"
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "False"
