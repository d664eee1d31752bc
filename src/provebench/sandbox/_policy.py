"""What a sandboxed candidate sees: the bubblewrap command line of the policy (docs/sandbox.md).

Visible, read-only: the system (`/usr` and the library and binary folders, a short list of
`/etc` entries a program needs to start and to verify TLS), the candidate's interpreter (a
virtual environment given by path *and* the Python it was made from), and the candidate's own
code. Visible, read-write: `/sandbox`, a tmpfs of the work limit holding a copy of the cycle's
private folder (the candidate's work directory, its diagnostics file, its key for the cycle;
`_launch.sandbox_process` copies it in and back), and a size-limited `/tmp`. New `/proc`
(this sandbox's processes only) and a minimal `/dev`. Nothing else of the host exists inside.

Paths the candidate must never read — the corpus, the run folder, the scenario, provebench's own
shipped scenarios — are hidden even where they lie inside a visible folder (an importer kept next
to its corpus): an empty tmpfs over a folder, `/dev/null` over a file. Code kept *inside* one of
them is refused, since hiding the secret would hide the code.

The policy's digest (recorded in the run's identity and in the verdict) covers everything that
decides what the candidate can reach — namespaces, uid, mounts by host path, hidden paths,
network, limits, and how the process count is enforced — and nothing that changes from one
cycle to the next (the private folder's host path, the socket's).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import provebench
from provebench._canonical import canonical_json, sha256_bytes
from provebench._errors import ProvebenchError
from provebench.sandbox._bytecode import (
    BYTECODE_OPTIONS,
    HELD_BYTECODE,
    environment_caches,
    held_bytecode,
    held_folders,
)
from provebench.sandbox._containment import (
    FileIdentity,
    ancestor_identities,
    identity_of,
    lies_inside,
    linked_files,
    real_path,
    spelled_inside,
)
from provebench.sandbox._corpus_folders import corpus_folder_holding
from provebench.sandbox._known_secrets import known_secrets
from provebench.sandbox._limits import DEFAULT_LIMITS, MIB, Limits, process_limit_mechanism
from provebench.sandbox._private import private_root
from provebench.sandbox._pseudo_fs import pseudo_devices, pseudo_file_system
from provebench.sandbox._python_command import program_argument

if TYPE_CHECKING:
    from provebench.sandbox._held_code import HeldCode

SANDBOX_UID = 65534
SANDBOX_DIR = "/sandbox"
SANDBOX_WORK = f"{SANDBOX_DIR}/work"
# The file of `/sandbox` where an external importer writes its diagnostics (pilot), and the most
# of it the laboratory reads. It is carried back alone when the rest of `/sandbox` is refused
# (over a limit): a refused work folder is then reported as that, with what the importer said,
# and not read as a failure it concealed (sandbox red team 45, F1).
DIAGNOSTICS_FILE = "diagnostics.jsonl"
MAX_DIAGNOSTICS_BYTES = 16 * 1024 * 1024
# What every sandboxed process starts with; a launch adds its own documented variables.
SANDBOX_ENV = {
    "PATH": "/usr/bin:/bin",
    "HOME": SANDBOX_WORK,
    "TMPDIR": "/tmp",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TZ": "UTC",
    "PYTHONHASHSEED": "0",
    "PYTHONDONTWRITEBYTECODE": "1",
    # Python there reads only the laboratory's own bytecode, shown read-only (`_bytecode`): never
    # a cache beside a source, which no seal holds (pilot red team 29, A2b).
    "PYTHONPYCACHEPREFIX": HELD_BYTECODE,
    "PYTHONUNBUFFERED": "1",
    "PYTHONNOUSERSITE": "1",
}
SANDBOX_TMP = Path("/tmp")
FORWARDER = "/run/provebench/forwarder.py"
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# The host's own configuration and state: nothing in them is ever shown whole (pilot red team
# round 18, A1: a code argument `/etc/hostname` showed `/etc`, `shadow` included, and the seal
# copied it). The system folders above are shown read-only to every candidate; these never.
HOST_STATE_DIRS = (
    "/etc", "/var", "/run", "/proc", "/sys", "/dev", "/boot", "/srv", "/mnt", "/media",
)  # fmt: skip
# What a program needs of /etc to start, resolve its own user and verify TLS; not the rest
# (shadow, ssh keys, the host's configuration).
ETC_ENTRIES = (
    "alternatives",
    "ca-certificates",
    "ca-certificates.conf",
    "group",
    "host.conf",
    "hosts",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "mime.types",
    "nsswitch.conf",
    "passwd",
    "ssl",
)
PACKAGE_DIR = Path(provebench.__file__).resolve().parent
# The laboratory's signing key, by role: hidden from every candidate, wherever it lies.
LABORATORY_KEY_ROLE = "laboratory-key"
# A seal's secret opening (the control's seed): hidden from every run of its sealed candidate.
SEAL_OPENING_ROLE = "seal-opening"
# The user's folder of laboratory-private folders (`_private.private_root`): every emulator's
# socket and every cycle's service-account key, of every run. Hidden from every candidate.
LABORATORY_PRIVATE_ROLE = "laboratory-private"
# Every seal's opening and control corpus this laboratory made (`_known_secrets`), whoever runs.
KNOWN_SEAL_SECRETS_ROLE = "seal-openings-and-controls"
# provebench's own shipped answer keys: never readable by a candidate, wherever it runs.
# The SI readings name, per scenario, the words a right answer holds: an answer key too.
SHIPPED_SECRETS = (
    PACKAGE_DIR / "si" / "scenarios",
    PACKAGE_DIR / "si" / "examples",
    PACKAGE_DIR / "si" / "profile" / "readings",
)
# The namespaces and process rules of every launch, and of the trial launch (`_tool.py`) that
# proves, once per process, that this machine can start them.
# The last of a launch's options: bubblewrap's own tmpfs, its root and its `/dev`, read-only once
# every mount point in them is made — only these mounts, not those below them (`/tmp`,
# `/dev/shm`, `/sandbox`, the device nodes), which `--remount-ro` leaves as they are.
# The size of each empty `__pycache__` tmpfs (`SandboxPolicy.empty_caches`): one page.
_EMPTY_CACHE_BYTES = "4096"
_READ_ONLY_ONCE_BUILT = ("--remount-ro", "/dev", "--remount-ro", "/")
ISOLATION_ARGS = (
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--die-with-parent",
    # The command is the namespace's first process: when it exits, the kernel ends every process
    # left in the namespace at once (daemons, double forks), and there is no separate reaper for
    # the candidate to stop with ptrace and so hold the cycle open.
    "--as-pid-1",
    "--new-session",
    "--uid",
    str(SANDBOX_UID),
    "--gid",
    str(SANDBOX_UID),
    "--hostname",
    "sandbox",
)
# Network: none at all, or the laboratory's endpoint alone through the in-sandbox forwarder.
NETWORK_NONE = "none"
NETWORK_LAB_ONLY = "lab-endpoint-only"


def absolute(path: str | Path) -> Path:
    """Absolute and normalised, without following symbolic links (a venv's `bin/python` is a
    link to the base interpreter; following it loses the venv). `Path.resolve()` follows them,
    `Path.absolute()` keeps `..`: hence `os.path.abspath`."""
    return Path(os.path.abspath(path))  # noqa: PTH100


def _under(path: Path, folder: Path) -> bool:
    return spelled_inside(path, folder)


def _is_system(path: Path) -> bool:
    return any(_under(path, Path(d)) for d in SYSTEM_DIRS)


def interpreter_paths(program: Path, *, field: str = "--agent-cmd") -> list[Path]:
    """The folders a program needs besides the system: its virtual environment (the folder
    above `bin/` that holds a `pyvenv.cfg`) and the Python installation its link chain resolves
    to — the interpreter the kernel actually runs. Never a folder that `pyvenv.cfg`'s `home`
    names: that file is the candidate's to write, and a `home` naming any host folder bound that
    folder into the sandbox (pilot red team round 16, A3). Nothing is run to find them.

    The folder above a program's `bin/` counts as an installation only when it is one — it holds
    `lib/pythonX.Y/os.py` — and, like every folder shown, it passes `refuse_shown_folder`: a
    program in `~/bin` named by path showed the whole home folder, `~/.ssh` with it (pilot red
    team round 17, A11). Any other program is shown as its own file (`code_folder`)."""
    program = absolute(program)
    found: list[Path] = []
    venv = program.parent.parent
    if program.parent.name == "bin" and (venv / "pyvenv.cfg").is_file():
        found.append(venv)
    real = program.resolve()
    if not _is_system(real) and real.parent.name == "bin":
        prefix = real.parent.parent
        if _is_python_installation(prefix):
            found.append(prefix)
    kept = [p for p in found if not _is_system(real_path(p))]
    for folder in kept:
        refuse_shown_folder(folder, field=field, what="interpreter installation")
    return kept


def _is_python_installation(prefix: Path) -> bool:
    """A Python's landmark (the one CPython itself looks for to find its prefix)."""
    return any(prefix.glob("lib/python3*/os.py"))


def _home_folders() -> list[Path]:
    """The user's home folder by `$HOME` and by the password database (`$HOME` may be moved)."""
    homes = [Path.home()]
    with contextlib.suppress(KeyError, OSError):
        homes.append(Path(pwd.getpwuid(os.getuid()).pw_dir))
    return homes


def never_shown(path: Path) -> str | None:
    """Why nothing at `path` — a file or a folder, by its real path and by identity, however it
    is spelled — may be shown to a candidate or copied into a seal or a run's snapshot, whoever
    names it; None when it may. One decision for files and folders: a file argument whose
    folder was refused used to be shown alone, and sealed, unchecked (pilot red team round 19,
    A2: `/etc/shadow`; A3 and A4: `data/p/environ` with `p -> /proc/self`, the laboratory's own
    environment). Refused: a pseudo file system's file or folder (`_pseudo_fs`), anything in a
    folder of the host's configuration or state (`HOST_STATE_DIRS`), and anything inside what
    every sandbox hides (`hidden_from_every_candidate`: the key folder, the private root, the
    shipped answer keys, every seal's opening and control), and anything in a corpus folder,
    told by its content (`_corpus_folders`: any corpus, not only the run's own; pilot red team
    28, A6)."""
    pseudo = pseudo_file_system(path)
    if pseudo is not None:
        return f"{pseudo}, a file system the kernel writes"
    real = real_path(path)
    # `lies_inside(real, folder)` for each folder below, its ancestors asked once.
    ancestors = ancestor_identities(real)
    for state in HOST_STATE_DIRS:
        if _under(real, Path(state)) or identity_of(state) in ancestors:
            return f"lies in {state}, a folder of the host's configuration or state"
    for secret in hidden_from_every_candidate():
        if identity_of(secret) in ancestors:
            return f"lies inside {secret}, which a candidate may not see"
    corpus = corpus_folder_holding(real)
    if corpus is not None:
        return (
            f"lies in {corpus}, a corpus folder (it holds a corpus manifest: an answer key and "
            "a fault schedule)"
        )
    return None


def refuse_never_shown(path: Path, *, field: str, what: str) -> None:
    """Refuse, in one line, to show or seal anything of `path` (`never_shown`)."""
    reason = never_shown(path)
    if reason is not None:
        raise ProvebenchError(
            f"the {what} {path} {reason}; a sandbox never shows it, nor a seal copies it — "
            "name the candidate's own files",
            field=field,
        )


@dataclass(frozen=True)
class NeverShownBelow:
    """`never_shown` for what a walk meets below a path that passed it. No link is followed
    there (a link is shown as a link), so an entry's real path lies under the walked one, and
    only a mount brings anything refused in: a pseudo file system mounted in the candidate's
    folder (told by its device) or a host folder of configuration or state bound there (told by
    its identity). Read once per walk, compared with each entry's `lstat`."""

    devices: frozenset[int]
    state_folders: dict[FileIdentity, str]

    def reason(self, status: os.stat_result) -> str | None:
        if status.st_dev in self.devices:
            return "is on a pseudo file system mounted there, a file system the kernel writes"
        state = self.state_folders.get((status.st_dev, status.st_ino))
        if state is not None:
            return f"is {state}, a folder of the host's configuration or state, mounted there"
        return None


def never_shown_below() -> NeverShownBelow:
    state = {i: folder for folder in HOST_STATE_DIRS if (i := identity_of(folder)) is not None}
    return NeverShownBelow(pseudo_devices(), state)


def _refusal(folder: Path) -> str | None:
    """Why `folder` may never be shown whole (by identity, whatever its spelling), or None:
    what is never shown at all (`never_shown`), the file system's root, a home folder or above
    one, a system folder, a top-level folder, or a folder that holds or covers the sandbox's
    `/tmp` or is or holds the host's temporary folder."""
    return never_shown(folder) or _whole_refusal(folder)


def _whole_refusal(folder: Path) -> str | None:
    """`_refusal` less `never_shown`: why a folder whose files may be shown is not shown whole."""
    real = real_path(folder)
    if real == Path("/"):
        return "is the file system's root"
    if any(lies_inside(home, folder) for home in _home_folders()):
        return "is a home folder or holds one"
    if _is_system(real):
        return "is a system folder"
    if real.parent == Path("/"):
        return "is a top-level folder of the file system"
    if _covers_sandbox_tmp(folder):
        return "is or holds /tmp"
    if _holds_host_temp(folder):
        return "is or holds the host's temporary folder"
    return None


def refuse_shown_folder(folder: Path, *, field: str, what: str) -> None:
    """Refuse, in one line, to show `folder` whole (`_refusal`), or at all (`never_shown`)."""
    refuse_never_shown(folder, field=field, what=what)
    reason = _whole_refusal(folder)
    if reason is not None:
        raise ProvebenchError(
            f"the {what} {folder} {reason}; a sandbox never shows it whole — "
            "keep the candidate's interpreter and code in folders of their own",
            field=field,
        )


def _covers_sandbox_tmp(location: Path) -> bool:
    """A bind at `location` would lie over the sandbox's own `/tmp` (which is mounted before the
    shown folders, so that code kept under the host's `/tmp` is shown on top of it), or would
    show the host's whole `/tmp` — by spelling and by identity: `x/tmplink` leading to `/tmp`
    is the host's `/tmp` (pilot red team round 17, A7)."""
    return _under(SANDBOX_TMP, absolute(location)) or lies_inside(SANDBOX_TMP, location)


def host_temp_folder() -> Path:
    """The host's temporary folder as this process resolves it (`tempfile.gettempdir()`: `$TMPDIR`,
    else `/tmp` …), its real path."""
    return real_path(tempfile.gettempdir())


def _holds_host_temp(location: Path) -> bool:
    """`location` is, or holds, the host's temporary folder (by identity): every run's temporary
    files are there, another laboratory's working folders included, so it is never shown whole
    — wherever `$TMPDIR` leads, as `/tmp` never is (pilot red team round 18, A3: code kept
    directly in `$TMPDIR=/work/…/tmp` showed that folder, and a concurrent red team's corpora
    with it)."""
    return lies_inside(host_temp_folder(), location)


def code_folder(file: Path, *, field: str = "--agent-cmd") -> Path:
    """What is shown of a candidate's program — the file its interpreter runs, or the class's
    file of `path.py:Class`: its folder (so that sibling modules import), or the file alone
    where the folder may not be shown whole (`_refusal`: the file system's root, a home folder
    or above one, a system folder, `/tmp` or the host's temporary folder or above them; and
    `_not_the_candidates`: a folder another user owns, or one its owner keeps to itself) — all
    by identity. A file that may never be shown (`never_shown`: `/etc/shadow`,
    `/proc/self/environ` by any link) is refused in one line, before its folder is looked at:
    the file alone passes the same decision as a folder (pilot red team round 19, A2–A4)."""
    file = shown_alone(file, field=field)
    folder = file.parent
    if _refusal(folder) is not None or _not_the_candidates(folder) is not None:
        return file
    return folder


def shown_alone(file: Path, *, field: str = "--agent-cmd") -> Path:
    """A file the candidate names that is not its program (a configuration, a data file): shown
    as that file alone, never its folder — after `never_shown`, in one line. The checks follow
    the kernel's path and the sandbox shows the spelled one made absolute, so the two must be
    the same file: `lnk/../../x` with `lnk` a link is `x` beside the link's target to the
    kernel, and was shown as the `x` its spelling names — another corpus's answer key (pilot red
    team 27, A13). Such a spelling is refused in one line."""
    refuse_never_shown(file, field=field, what="candidate's code")
    shown = absolute(file)
    if real_path(file) != real_path(shown):
        raise ProvebenchError(
            f"{file} leads to {real_path(file)} ('..' after a symbolic link), but reads as "
            f"{shown}: name the file by a path without '..' after a link",
            field=field,
        )
    return shown


def _not_the_candidates(folder: Path) -> str | None:
    """Why a folder that holds the candidate's program is still not shown whole, or None: its
    owner is not the user running the laboratory (a folder of another user's or of the system's
    is not the code this user gives), or its owner keeps it to itself — no access at all for
    the group or others, the mark `ssh` and `gpg` insist on for a folder of keys (pilot red
    team round 19: a program named in `~/.ssh` would show every key beside it)."""
    try:
        status = real_path(folder).stat()
    except OSError:
        return "cannot be read"
    if status.st_uid != os.getuid():
        return "belongs to another user"
    if status.st_mode & 0o077 == 0:
        return "is private to its owner (no access for the group or others)"
    return None


def code_paths_for_command(argv: Sequence[str], *, field: str = "--agent-cmd") -> list[Path]:
    """What an external command needs to see: its interpreter and every file it names."""
    paths = interpreter_paths(Path(argv[0]), field=field) if os.sep in argv[0] else []
    return paths + command_code_folders(argv, field=field)


def command_code_folders(argv: Sequence[str], *, field: str = "--agent-cmd") -> list[Path]:
    """What an external command shows of the files it names — its code, without its
    interpreter. Only its program's folder may be shown whole (`code_folder`): the program
    itself, unless the system's, or the file a Python interpreter runs (`program_argument`).
    Every other absolute file argument is shown alone (`shown_alone`): the candidate writes its
    own command line, and a data argument `~/.ssh/id_rsa`, `~/.aws/credentials` or
    `~/.config/gh/hosts.yml` showed, and a seal copied, the whole folder of credentials around
    it (pilot red team round 19). A file inside a folder shown whole (a configuration beside
    the program) is shown with it, never again alone: there a hidden file is covered, as every
    hidden file inside a shown folder is, where alone it would be refused."""
    folders = []
    if os.sep in argv[0] and not _is_shared(absolute(Path(argv[0]))):
        folders.append(code_folder(Path(argv[0]), field=field))
    program = program_argument(argv)
    files = [
        (index, Path(argument))
        for index, argument in enumerate(argv[1:], start=1)
        if Path(argument).is_absolute() and Path(argument).is_file()
    ]
    folders += [code_folder(file, field=field) for index, file in files if index == program]
    for index, file in files:
        if index != program:
            alone = shown_alone(file, field=field)
            if not any(lies_inside(alone, shown) for shown in folders):
                folders.append(alone)
    return folders


def _is_shared(program: Path) -> bool:
    """A program of the system or of provebench's own interpreter (`python3` found on a `PATH`
    that leads into it): shown to every candidate as it is, never the candidate's code — its
    installer may have linked its files from a cache, which the walk of code refuses
    (`_other_names`), and whoever can write it runs as the laboratory anyway."""
    return _is_system(program) or any(
        lies_inside(program, folder) for folder in own_interpreter_paths()
    )


def candidate_interpreter_code(argv: Sequence[str], *, field: str = "--agent-cmd") -> list[Path]:
    """What the sandbox shows of an external command's interpreter that neither the system nor
    provebench's own interpreter and package are: the candidate's virtual environment (its
    `site-packages`, `.pth` files, `pyvenv.cfg`, console scripts) and a Python installation of
    its own. The candidate's process loads that code as surely as its script (`-m MOD` runs a
    module from it, an import from a sealed script resolves into it), so it is the candidate's
    code: identified and sealed with it (red team round 16, A2; issue 40, "the seal binds every
    byte that runs")."""
    if os.sep not in argv[0]:
        return []
    shared = shown_to_every_candidate()
    own = [
        path
        for path in interpreter_paths(Path(argv[0]), field=field)
        if not any(lies_inside(path, folder) for folder in shared)
    ]
    for folder in own:
        # As for a program's folder (`_not_the_candidates`): an installation another user owns
        # is not this user's code, and that user could change it under a run (pilot red team
        # 27, A2 as `nobody`, A1f).
        if _owner_is_another_user(folder):
            raise ProvebenchError(
                f"the interpreter installation {folder} belongs to another user; a sandbox "
                "shows only the candidate's own — keep its interpreter in a folder of its own",
                field=field,
            )
    return own


def _owner_is_another_user(folder: Path) -> bool:
    try:
        return real_path(folder).stat().st_uid != os.getuid()
    except OSError:
        return True


def program_outside(argv: Sequence[str], held: Sequence[Path]) -> Path | None:
    """The first place on the link chain of `argv`'s program — each link where it lies and
    the file it ends at — that neither the held code `held` nor what every candidate is shown
    holds (by the identity of its folder), or None. A sandbox shows only those, so a program
    leading elsewhere either fails to start or, once something is placed there, runs bytes no
    seal holds (pilot red team 27, A2: a sealed `x/bin/python3` leading to an unsealed
    `evil/bin/python3`)."""
    if os.sep not in argv[0]:
        return None
    folders = [*held, *shown_to_every_candidate()]
    place = absolute(argv[0])
    for _ in range(40):  # the kernel's own limit on links followed (ELOOP)
        where = real_path(place.parent) / place.name
        if not _is_system(where) and not _held_at(where, folders):
            return where
        if not where.is_symlink():
            return None
        place = where.parent / where.readlink()
    return place


def _held_at(place: Path, folders: Sequence[Path]) -> bool:
    """`place` (its folder already real) is one of `folders` spelled alike, or its folder lies
    inside one of them by identity: a link is judged where it lies, not where it leads."""
    spelled = [real_path(absolute(f).parent) / absolute(f).name for f in folders]
    return place in spelled or any(lies_inside(place.parent, f) for f in folders)


def command_code_paths(argv: Sequence[str], *, field: str = "--agent-cmd") -> list[Path]:
    """Every path an external command's identity holds — the folders of the files it names and
    its own interpreter (`candidate_interpreter_code`) — none inside another (by identity): a
    folder inside a held one is held with it, and bound again from the host it would cover the
    held bytes with the folder's current ones."""
    paths = [
        *command_code_folders(argv, field=field),
        *candidate_interpreter_code(argv, field=field),
    ]
    kept: list[Path] = []
    for index, path in enumerate(paths):
        inside_another = any(
            lies_inside(path, other) and (not lies_inside(other, path) or before < index)
            for before, other in enumerate(paths)
            if before != index
        )
        if not inside_another:
            kept.append(path)
    return kept


def outside_held_code(paths: Iterable[Path], held: Sequence[Path]) -> list[Path]:
    """The paths of `paths` that no held code path holds (by identity): the only ones a launch
    may still bind from the host."""
    return [path for path in paths if not any(lies_inside(path, code) for code in held)]


def shown_to_every_candidate() -> list[Path]:
    """What any sandbox shows whatever the candidate: the system folders, provebench's own
    interpreter and package. A secret the laboratory cannot name to a launch (a seal's opening)
    must lie outside all of them and outside the candidate's code."""
    return [Path(d) for d in SYSTEM_DIRS] + own_interpreter_paths() + [PACKAGE_DIR]


def own_interpreter_paths() -> list[Path]:
    """provebench's own interpreter: the forwarder and the sandboxed worker run on it."""
    return interpreter_paths(Path(sys.executable))


def unchecked_site_folders() -> list[Path]:
    """The `site-packages` of provebench's interpreter installations that provebench's own
    interpreter does not import from — the base Python its virtual environment was made from —
    and so that its environment check (`_environment.site_folders`) never walks. Every sandbox
    shows that installation (a venv's `bin/python` runs it), so a command naming the base
    interpreter ran whatever its `site-packages` held, never checked nor held (pilot red team
    29, A1: pyenv's `python3` with a hundred distributions provebench does not require and an
    unlisted `.pth`). Each sandbox shows these folders empty (`policy_for`)."""
    from provebench.sandbox._environment import site_folders

    checked = {real_path(folder) for folder in site_folders()}
    found = [
        site
        for prefix in own_interpreter_paths()
        for site in sorted(prefix.glob("lib/python3*/site-packages"))
        if site.is_dir() and real_path(site) not in checked
    ]
    return list(dict.fromkeys(found))


def shown_empty_caches() -> list[Path]:
    """The `__pycache__` folders of provebench's environment (its interpreter installations and
    package folder), which every sandbox shows empty: the host writes them as it imports, so
    their bytes change between two honest commands (an operator's `python -O` broke every
    outstanding seal: pilot red team 31, A9), and no sandboxed Python needs them — its bytecode
    is the laboratory's held one (`_bytecode`). Shown, a `.pyc` planted there ran once the
    candidate turned the held prefix off (pilot red team 30, A1). Those the environment digest's
    walk found (`_bytecode.environment_caches`): every launcher takes the digest before it
    builds a policy (`_manifest.checked_environment_digest`), so this walks only in a process
    that took none (a sealed SI agent built two policies first: two walks, a second of CPU).
    One removed since is left out (there is nothing there to show, nor to mount over).

    Strings until the end, each made a `Path` once: a thousand folders at every policy built, and
    `Path`s compared and tested one by one cost a launch 8 ms of CPU. Sorted as `Path`s sort
    (by their parts), so the launch's mounts come in the same order."""
    found = environment_caches()
    if found is None:
        skipped = [os.path.realpath(path) for path in bytecode_skipped()]
        found = []
        for root in [*own_interpreter_paths(), PACKAGE_DIR]:
            for parent, folders, _ in os.walk(root):
                real = os.path.realpath(parent)
                if any(real == out or real.startswith(out + os.sep) for out in skipped):
                    folders[:] = []
                elif os.path.basename(parent) == "__pycache__":  # noqa: PTH119 (cost)
                    found.append(os.path.normpath(parent))
                    folders[:] = []
    kept = {cache for cache in found if os.path.isdir(cache)}  # noqa: PTH112 (cost)
    return [Path(cache) for cache in sorted(kept, key=_path_parts)]


def _path_parts(path: str) -> list[str]:
    """The key `Path`s of absolute, normalised paths sort by: their parts, in order."""
    return path.split(os.sep)  # noqa: PTH206 (cost: a thousand of them per policy)


def bytecode_roots() -> list[Path]:
    """The folders whose sources every sandbox shows as provebench's, spelled as provebench's
    import path spells them (the spelling a sandboxed Python finds them by): its
    `site-packages`, its standard library folders, its package folder (`_bytecode`)."""
    from provebench.sandbox._environment import site_folders, standard_library_entries

    sites = site_folders()
    return [*sites, *standard_library_entries(sites, own_interpreter_paths()), PACKAGE_DIR]


def bytecode_skipped() -> list[Path]:
    """What is never compiled into the held bytecode folder: what no sandbox shows — the paths
    hidden from every candidate (provebench's shipped answer keys among them) and the base
    interpreter's `site-packages`, shown empty."""
    return [*hidden_from_every_candidate(), *unchecked_site_folders()]


def system_args() -> list[str]:
    """The system, read-only: its folders (a link, as on merged-/usr systems, as a link) and the
    `/etc` entries a program needs; a new `/proc` and a minimal `/dev`."""
    args: list[str] = []
    for folder in SYSTEM_DIRS:
        system_dir = Path(folder)
        if system_dir.is_symlink():
            args += ["--symlink", str(system_dir.readlink()), folder]
        elif system_dir.is_dir():
            args += ["--ro-bind", folder, folder]
    for entry in ETC_ENTRIES:
        args += ["--ro-bind-try", f"/etc/{entry}", f"/etc/{entry}"]
    return [*args, "--proc", "/proc", "--dev", "/dev"]


@dataclass(frozen=True)
class SandboxPolicy:
    """Everything that decides what a sandboxed candidate can reach."""

    code: tuple[Path, ...]  # shown read-only, where the sandbox shows them
    hidden: tuple[Path, ...]  # the secrets, on the host
    hidden_roles: tuple[str, ...] = ()
    limits: Limits = DEFAULT_LIMITS
    network: str = NETWORK_NONE
    processes_enforced_by: str = "rlimit"
    # A shown path whose bytes come from elsewhere: a seal's read-only copy of the candidate's
    # code, shown where the code was when it was sealed (`(shown path, copy)`).
    copies: tuple[tuple[Path, Path], ...] = ()
    # Where each secret appears inside the sandbox — under every folder that is shown, by
    # identity (`_containment`) — and so where it is covered: `(location inside, secret)`.
    masks: tuple[tuple[Path, Path], ...] = ()
    # The `__pycache__` folders of provebench's environment, each shown as an empty tmpfs of
    # one page (`shown_empty_caches`): a thousand of them, so not masks.
    empty_caches: tuple[Path, ...] = ()
    # The run's snapshot of the candidate's code in sealed memory (`_held_code`): a shown path
    # it holds is rebuilt from memory in the sandbox's own file system, never bound from disk.
    held: HeldCode | None = field(default=None, compare=False)

    def describe(self) -> dict[str, Any]:
        return {
            "namespaces": ["user", "pid", "mount", "ipc", "uts", "cgroup", "net"],
            "command_is_pid_1": True,
            "uid": SANDBOX_UID,
            "nested_user_namespaces": False,
            "system": [d for d in SYSTEM_DIRS if Path(d).exists()],
            "etc": list(ETC_ENTRIES),
            # By role, not by host path: the same policy on another machine or in another folder
            # is the same policy (and the run's log the same bytes).
            "shown_readonly": ["candidate-code", "interpreter", "provebench-package"],
            # The role covers every SHIPPED_SECRETS path (scenarios, examples, SI readings).
            "hidden": sorted({*self.hidden_roles, "provebench-shipped-scenarios"}),
            "private_readwrite": [SANDBOX_DIR, "/tmp", "/dev/shm"],
            "read_only_once_built": ["/", "/dev"],
            "network": self.network,
            "limits": self.limits.describe(),
            "processes_enforced_by": self.processes_enforced_by,
        }

    def digest(self) -> str:
        return sha256_bytes(canonical_json(self.describe()).encode("utf-8"))

    def bwrap_args(
        self,
        private_dir: Path,
        extra_binds: Iterable[tuple[str, str]] = (),
        opened: list[int] | None = None,
    ) -> list[str]:
        """bwrap's options (everything before the command) for one launch. The descriptors of
        the held code's files it opens are added to `opened`: the caller passes them to bwrap
        and closes them once it started."""
        if self.held is not None and opened is None:
            raise RuntimeError("a launch of held code must collect its descriptors")
        args = [*ISOLATION_ARGS, *system_args()]
        # /tmp before the code: code kept under the host's /tmp is bound on top of the new one.
        args += ["--size", str(self.limits.tmp_mib * MIB), "--tmpfs", "/tmp"]
        # Every other place a candidate could write is bounded too: bubblewrap's root and its
        # `/dev` are tmpfs of no size limit (host memory, which `RLIMIT_AS` does not count), and a
        # candidate filled `/dev/shm` and `/run` with 800 MiB (sandbox red team 41, SB10). So
        # `/dev/shm` is a bounded tmpfs of its own, and the root and `/dev` are read-only once
        # every mount point is made (`_READ_ONLY_ONCE_BUILT`, last).
        args += ["--size", str(self.limits.shm_mib * MIB), "--tmpfs", "/dev/shm"]
        copied = dict(self.copies)
        for path in sorted(set(self.code)):
            if self.held is not None and path in self.held:
                assert opened is not None
                args += self.held.mount_args(path, opened)
            else:
                args += ["--ro-bind", str(copied.get(path, path)), str(path)]
        for host, inside in extra_binds:
            # The laboratory's own files (the forwarder): checked like every bind of a host
            # path, by identity — a folder would need masks, and a hidden file is never shown.
            if Path(host).is_dir() or any(lies_inside(Path(host), h) for h in self.hidden):
                raise RuntimeError(f"{host} may not be bound into a sandbox")
            args += ["--ro-bind", host, inside]
        bytecode = held_bytecode(bytecode_roots(), bytecode_skipped())
        if bytecode is not None:  # the only bytecode Python there reads, and writes none of
            args += ["--ro-bind", str(bytecode), HELD_BYTECODE]
        # `/sandbox` is a tmpfs of the work limit, not a bind of the cycle's folder on the host
        # disk: bounded while it is written, where the limit measured when the cycle ended bounded
        # nothing meanwhile (one launch wrote 5000 MiB there, 250 MiB a file under
        # `RLIMIT_FSIZE`: sandbox red team 43, G2-1). The launch fills it from `private_dir` before
        # the command starts and, for a cycle that carries it, copies it back once every process
        # of the launch has ended (`_launch.sandbox_process`).
        args += ["--size", str(self.limits.work_dir_mib * MIB), "--tmpfs", SANDBOX_DIR]
        args += ["--chdir", SANDBOX_WORK]
        locations = {location for location, _ in self.masks}
        for location, secret in sorted(set(self.masks)):
            if any(other != location and _under(location, other) for other in locations):
                continue  # inside another hidden place (a matrix's corpus): hidden with it
            if secret.is_dir():  # an empty folder, read-only: nothing to read, nowhere to write
                args += ["--tmpfs", str(location), "--remount-ro", str(location)]
            elif secret.exists():
                args += ["--ro-bind", "/dev/null", str(location)]
        for cache in self.empty_caches:
            # One page each: the tmpfs is owned by the sandbox's uid, so a candidate `chmod`ed
            # one and wrote 600 MiB of host memory into it, and the last `--remount-ro /` does
            # not reach the mounts below the root (sandbox red team 42, G2-1); now a thousand
            # pages in all. Not remounted read-only: bubblewrap reads its mount table once per
            # remount, 1.2 s a launch here against 0.05 s, and what a candidate writes there in
            # its own launch only its own processes read (every Python of provebench's in the
            # sandbox reads the held bytecode, `HELD_BYTECODE`, and each launch's tmpfs is new).
            # Four arguments each (bubblewrap takes at most 9000; a sealed candidate of 1500
            # files needs the rest): a size and no `--perms`, so bubblewrap's mode 0755.
            args += ["--size", _EMPTY_CACHE_BYTES, "--tmpfs", str(cache)]
        if self.held is not None:
            args += self.held.read_only_args()
        return [*args, *_READ_ONLY_ONCE_BUILT]


def _bound(code: Sequence[Path], held: HeldCode | None) -> list[Path]:
    """The shown paths a launch binds from the host: all but those rebuilt from held memory."""
    return [path for path in code if held is None or path not in held]


def _shown_mounts(code: Iterable[Path], copies: Mapping[Path, Path]) -> list[tuple[Path, Path]]:
    """Every `(location inside, host folder)` a launch binds: the system, the `/etc` entries,
    and what `code` shows (from its copy where it has one)."""
    mounts = [(Path(d), Path(d)) for d in SYSTEM_DIRS if Path(d).is_dir()]
    mounts = [(inside, host) for inside, host in mounts if not host.is_symlink()]
    mounts += [(Path("/etc", entry), Path("/etc", entry)) for entry in ETC_ENTRIES]
    return mounts + [(path, copies.get(path, path)) for path in code]


def _masks(secrets: Iterable[Path], mounts: Sequence[tuple[Path, Path]]) -> list[tuple[Path, Path]]:
    """Where each secret appears inside the sandbox: for every mount whose host folder holds it
    — by identity, however either is spelled — the same place under the mount's location."""
    by_identity: dict[FileIdentity, list[Path]] = {}
    for inside, host in mounts:
        found = identity_of(host)
        if found is not None:
            by_identity.setdefault(found, []).append(inside)
    masks = []
    for secret in secrets:
        target = real_path(secret)
        for ancestor in (target, *target.parents):
            for inside in by_identity.get(identity_of(ancestor) or (-1, -1), []):
                masks.append((inside / target.relative_to(ancestor), secret))
    return masks


def _refuse_linked_secrets(code: Iterable[Path], hidden: Sequence[Path], field: str) -> None:
    """Refuse a file of the candidate's code that is a hidden file by another name (a hard
    link: no mask over the secret's own name covers it). Only the secrets' files with other
    names are looked for, so the code is walked only when a secret has one."""
    linked = linked_files(hidden, pruned=held_folders())
    if not linked:
        return
    for root in code:
        for path in _regular_files(real_path(root)):
            try:
                status = path.lstat()
            except OSError:
                continue
            secret = linked.get((status.st_dev, status.st_ino))
            if status.st_nlink > 1 and secret is not None:
                raise ProvebenchError(
                    f"{path} in the candidate's code is {secret} by another name (a hard link), "
                    "which a candidate may not see; remove it",
                    field=field,
                )


def _regular_files(root: Path) -> Iterable[Path]:
    if not root.is_dir():
        return [root]
    return (Path(folder, name) for folder, _, names in os.walk(root) for name in names)


def laboratory_secrets() -> dict[str, Path]:
    """The laboratory's own secrets, by role: its signing key and its private root — the root,
    not the private folders in it: a mask over the root covers the folders another run makes
    after this sandbox started (pilot red team round 16, A6)."""
    from provebench.attest._keys import key_dir

    return {LABORATORY_KEY_ROLE: key_dir(), LABORATORY_PRIVATE_ROLE: private_root()}


def hidden_from_every_candidate() -> list[Path]:
    """What no candidate ever sees, whatever the run names: the laboratory's secrets, the
    shipped answer keys, and every seal opening and control corpus recorded (`known_secrets`).
    One set for a run's sandbox (`policy_for`) and for what `pilot seal` copies: a seal made of
    a folder holding any of them copied them, and a run from the seal read them in the copy,
    where no mask over the originals reaches (pilot red team round 17, A1 and A6)."""
    return [*laboratory_secrets().values(), *SHIPPED_SECRETS, *known_secrets()]


def policy_for(
    code: Iterable[Path],
    secrets: Mapping[str, Path],
    *,
    limits: Limits = DEFAULT_LIMITS,
    network: str = NETWORK_NONE,
    field_name: str = "--agent",
    copies: Mapping[Path, Path] | None = None,
    held: HeldCode | None = None,
) -> SandboxPolicy:
    """The policy showing `code` (plus provebench's interpreter and package) and hiding
    `secrets` (by role: `corpus`, `run-folder`, `scenario`, `output-folder`), and, from every
    candidate whatever the caller names, the laboratory's signing key (`laboratory-key`,
    docs/attestation.md) and provebench's shipped answer keys. `copies` shows a seal's copy of
    a code path in its place (docs/attestation.md); `held`, the run's snapshot held in sealed
    memory, shows the paths it holds from memory instead (`_held_code`).

    Containment is decided by identity (`_containment`), never by spelling: a secret is hidden
    wherever it appears under a shown folder, and code that lies inside a secret (an importer
    file inside the corpus or the run folder, or a link into one) is refused in one line, since
    hiding the secret would hide the code with it."""
    copies = {absolute(shown): copy for shown, copy in (copies or {}).items()}
    secrets = {**laboratory_secrets(), **secrets}
    # Each secret where the kernel finds it: `x/link/../corpus` is the folder the link leads to
    # the parent of, which is what the laboratory reads, not the `x/corpus` its spelling says.
    hidden = [real_path(s) for s in (*secrets.values(), *hidden_from_every_candidate())]
    shown = [absolute(c) for c in code]
    candidates = list(shown)
    # provebench's own package: its public rules are the candidate's to use (an importer may
    # call `decide_row`), and the sandboxed workers run from it. Its answer keys stay hidden.
    shown += [*own_interpreter_paths(), PACKAGE_DIR]
    # What may be shown at all is decided first, before any folder is walked: walking a host
    # /tmp or a home folder to look for secrets in it would already read what is refused.
    for path in shown:
        if _covers_sandbox_tmp(path):
            raise ProvebenchError(
                f"{path} (shown to the candidate) would cover the sandbox's own /tmp; "
                "keep the candidate's code and interpreter in a folder of their own",
                field=field_name,
            )
        if path in candidates:  # a file as a folder, where it is shown and where it is read
            refuse_never_shown(path, field=field_name, what="candidate's code")
            refuse_never_shown(copies.get(path, path), field=field_name, what="candidate's code")
        # provebench's own interpreter and package too: no shown folder holds every run's
        # temporary files (pilot red team round 18, A3).
        if _holds_host_temp(path):
            raise ProvebenchError(
                f"{path} (shown to the candidate) is or holds the host's temporary folder "
                f"{host_temp_folder()}; keep the candidate's code and interpreter in a folder "
                "of their own, or set TMPDIR elsewhere",
                field=field_name,
            )
        # Every folder of the candidate's shown whole, however it was found (a package's
        # folder, a venv, a code folder): never the root, a home folder, a system folder or
        # /tmp, by identity (pilot red team round 17, A11 and A7).
        if path in candidates and real_path(copies.get(path, path)).is_dir():
            refuse_shown_folder(path, field=field_name, what="folder")
    _refuse_linked_secrets([copies.get(path, path) for path in candidates], hidden, field_name)
    emptied = unchecked_site_folders()
    # The environment's bytecode beside its sources, which no manifest binds (`_manifest`):
    # shown empty, so a `.pyc` planted there runs nothing (pilot red team 30, A1; 31, A9).
    emptied_caches = shown_empty_caches()
    for path in candidates:
        for site in emptied:
            if lies_inside(copies.get(path, path), site):
                raise ProvebenchError(
                    f"{path} lies inside {site}, the site-packages of provebench's base "
                    "interpreter, which every sandbox shows empty; keep the candidate's code in "
                    "a folder or virtual environment of its own",
                    field=field_name,
                )
    for path in shown:
        for secret in hidden:
            if lies_inside(copies.get(path, path), secret):
                raise ProvebenchError(
                    f"{path} (shown to the candidate) lies inside {secret}, which a candidate "
                    "may not see; move one of them",
                    field=field_name,
                )
    unique = tuple(dict.fromkeys(shown))
    if held is not None and any(path not in held for path in copies):
        # Never the folder instead of the held bytes: the copy it would bind is not what the
        # run identified (red team round 10, A10).
        raise RuntimeError("the held code does not cover every code path the run identified")
    return SandboxPolicy(
        code=unique,
        hidden=tuple(dict.fromkeys(hidden)),
        # The role whether or not any is recorded yet: the policy is the same on every machine.
        hidden_roles=tuple(sorted({*secrets, KNOWN_SEAL_SECRETS_ROLE})),
        limits=limits,
        network=network,
        processes_enforced_by=process_limit_mechanism(),
        copies=tuple(sorted(copies.items())),
        # Held code is exactly its listing, which leaves every hidden path out: nothing in it to
        # cover (a mask would add an entry the listing does not have). The base interpreter's
        # unchecked site-packages are shown empty (pilot red team 29, A1); the environment's
        # `__pycache__` folders are too (`empty_caches`: pilot red team 30, A1; 31, A9).
        masks=tuple(
            dict.fromkeys(
                [
                    *_masks(hidden, _shown_mounts(_bound(unique, held), copies)),
                    *((site, site) for site in emptied),
                ]
            )
        ),
        empty_caches=tuple(emptied_caches),
        held=held,
    )


__all__ = [
    "BYTECODE_OPTIONS",
    "DIAGNOSTICS_FILE",
    "FORWARDER",
    "HELD_BYTECODE",
    "ISOLATION_ARGS",
    "KNOWN_SEAL_SECRETS_ROLE",
    "LABORATORY_KEY_ROLE",
    "LABORATORY_PRIVATE_ROLE",
    "MAX_DIAGNOSTICS_BYTES",
    "NETWORK_LAB_ONLY",
    "NETWORK_NONE",
    "PACKAGE_DIR",
    "SANDBOX_DIR",
    "SANDBOX_ENV",
    "SANDBOX_UID",
    "SANDBOX_WORK",
    "SEAL_OPENING_ROLE",
    "SHIPPED_SECRETS",
    "NeverShownBelow",
    "SandboxPolicy",
    "absolute",
    "candidate_interpreter_code",
    "code_folder",
    "code_paths_for_command",
    "command_code_folders",
    "command_code_paths",
    "hidden_from_every_candidate",
    "host_temp_folder",
    "interpreter_paths",
    "laboratory_secrets",
    "never_shown",
    "never_shown_below",
    "outside_held_code",
    "own_interpreter_paths",
    "policy_for",
    "program_outside",
    "refuse_never_shown",
    "refuse_shown_folder",
    "shown_alone",
    "shown_to_every_candidate",
    "system_args",
    "unchecked_site_folders",
]
