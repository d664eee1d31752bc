"""Build hook: compile provebench's one C accelerator, `provebench.pilot._plainfields`.

The compiled module speeds up inner loops of the final-state scorer (the field comparison of
rows that differ, the ids' cut, the width check, the id join's cut, hash and look-up:
docs/score-final.md); the package has a pure-Python road for everything it does, so a machine
without a C compiler still gets a working install, with a warning. setuptools drives the
compiler (it knows each platform's flags and the Python headers); hatchling packs.

* A wheel gets the compiled file and a platform tag.
* An editable install (`pip install -e .`, what `make` does) gets the compiled file next to its
  source in `src/`, where the editable path finds it (`build_ext --inplace`, in effect).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MODULE = "provebench.pilot._plainfields"
SOURCE = Path("src/provebench/pilot/_plainfields.c")


class CompiledAccelerator(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        try:
            built = _compile(root, root / "build" / "accelerator")
        except Exception as error:  # any compiler or setuptools failure: stay pure Python
            if version == "editable":  # never leave a file compiled from an older source
                for stale in (root / SOURCE.parent).glob("_plainfields.*.so"):
                    stale.unlink()
            self.app.display_warning(
                f"provebench: {MODULE} not compiled ({error.__class__.__name__}: {error}); "
                "the pure-Python road will be used (slower final-state scoring)"
            )
            return
        if version == "editable":
            shutil.copy2(built, root / SOURCE.parent / built.name)
            return
        build_data["force_include"][str(built)] = f"provebench/pilot/{built.name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True


def _compile(root: Path, work: Path) -> Path:
    from setuptools import Distribution, Extension

    extension = Extension(MODULE, [str(root / SOURCE)])
    distribution = Distribution({"name": "provebench", "ext_modules": [extension]})
    command = distribution.get_command_obj("build_ext")
    command.build_temp = str(work / "temp")
    command.build_lib = str(work / "lib")
    command.ensure_finalized()
    command.run()
    return Path(command.get_ext_fullpath(MODULE))
