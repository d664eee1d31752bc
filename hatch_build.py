"""Build hook: compile provebench's C accelerators.

* `provebench.pilot.score_final._plainfields` speeds up inner loops of the final-state scorer (the
  field comparison of rows that differ, the ids' cut, the width check, the id join's cut, hash and
  look-up: docs/score-final.md);
* `provebench.pilot.lab._listorder` keeps the laboratory Drive's listing order as files are
  added (docs/pilot-lab.md, "Performance").

The package has a pure-Python road for everything they do, so a machine without a C compiler
still gets a working install, with a warning. setuptools drives the compiler (it knows each
platform's flags and the Python headers); hatchling packs.

* A wheel gets the compiled files and a platform tag.
* An editable install (`pip install -e .`, what `make` does) gets each compiled file next to its
  source in `src/`, where the editable path finds it (`build_ext --inplace`, in effect).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# Module name -> its C source. Compiled together: one compiler failure leaves all pure Python.
MODULES = {
    "provebench.pilot.score_final._plainfields": Path(
        "src/provebench/pilot/score_final/_plainfields.c"
    ),
    "provebench.pilot.lab._listorder": Path("src/provebench/pilot/lab/_listorder.c"),
}


class CompiledAccelerator(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        try:
            built = _compile(root, root / "build" / "accelerator")
        except Exception as error:  # any compiler or setuptools failure: stay pure Python
            if version == "editable":  # never leave a file compiled from an older source
                for source in MODULES.values():
                    for stale in (root / source.parent).glob(f"{source.stem}.*.so"):
                        stale.unlink()
            self.app.display_warning(
                f"provebench: {', '.join(MODULES)} not compiled "
                f"({error.__class__.__name__}: {error}); the pure-Python roads will be used "
                "(slower final-state scoring and laboratory runs)"
            )
            return
        if version == "editable":
            for source, path in built:
                shutil.copy2(path, root / source.parent / path.name)
            return
        for source, path in built:
            package = source.parent.relative_to("src").as_posix()
            build_data["force_include"][str(path)] = f"{package}/{path.name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True


def _compile(root: Path, work: Path) -> list[tuple[Path, Path]]:
    """Each module's (source, compiled file)."""
    from setuptools import Distribution, Extension

    extensions = [Extension(name, [str(root / source)]) for name, source in MODULES.items()]
    distribution = Distribution({"name": "provebench", "ext_modules": extensions})
    command = distribution.get_command_obj("build_ext")
    command.build_temp = str(work / "temp")
    command.build_lib = str(work / "lib")
    command.ensure_finalized()
    command.run()
    return [(source, Path(command.get_ext_fullpath(name))) for name, source in MODULES.items()]
