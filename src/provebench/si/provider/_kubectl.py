"""The `kubectl` tool: an agent's kubectl command against its environment's Kubernetes endpoint.

The agent gives an argument list, never a command line: no shell ever runs, so quoting, `;`,
`$(…)` or a pipe in an argument are text that kubectl receives as it is. The list is held to an
allowlist before anything runs (`argv_problem`): the first argument is a command kubectl runs
against the cluster it is configured for (`get`, `describe`, `logs`, `patch`, `scale` …), and
every argument that begins with `-` is a flag from a short list that neither names another
cluster, user or credential (`--kubeconfig`, `--server`, `--token`, `--context`, `--as` …)
nor reads or writes a file (`--from-file`, `-k`, `--template`, `-o go-template-file=…`; `-f` is
stdin only, the tool's `stdin` text) nor leaves the API (`proxy`, `port-forward`, `exec`, `cp`,
`plugin`, `config` …). A refused list is a tool error naming the argument, and kubectl is not
started.

kubectl runs (`KubectlRunner`) with an environment of its own: a private folder (mode 0700) as
its home, holding the environment's kubeconfig (mode 0600) and kubectl's cache, `PATH` limited
to the system's, nothing else of the caller's environment (no proxy, no other kubeconfig); with
a time limit and a cap on what it prints. Its exit status, standard output and standard error
are the tool's reply.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Final

from pydantic import JsonValue

from provebench._errors import ProvebenchError
from provebench.si.provider._kubectl_flags import read_command_line, split_flag
from provebench.si.sim._tools import ToolResponse, ToolSpec
from provebench.si.sim.declared._tools import ORCHESTRATION

TOOL_NAME: Final = "kubectl"
DEFAULT_TIMEOUT_SEC: Final = 30.0
OUTPUT_CAP: Final = 256 * 1024  # characters kept of each of stdout and stderr
MAX_ARGUMENTS: Final = 64
MAX_STDIN: Final = 1024 * 1024
KUBECTL_MISSING: Final = (
    "kubectl is not installed (Debian: apt-get install kubernetes-client); the kubectl tool "
    "needs it"
)

KUBECTL_SPEC: Final = ToolSpec(
    name=TOOL_NAME,
    interface_type=ORCHESTRATION,
    description=(
        "Run kubectl against your environment's Kubernetes API (already configured: no "
        "--kubeconfig, --server, --context or credentials). `args` is the argument list after "
        '`kubectl`, no shell: e.g. ["get", "pods", "-n", "shop", "-o", "json"]. '
        "Commands: get, describe, logs, events, create, apply, replace, patch, delete, scale, "
        "rollout restart|status, label, annotate, set image|env, api-resources, "
        "api-versions, version. `-f -` reads `stdin`. No proxy, port-forward, exec, cp, edit "
        "or config."
    ),
    input_schema={
        "type": "object",
        "properties": {
            "args": {
                "type": "array",
                "items": {"type": "string"},
                "description": "kubectl's arguments, one string each.",
            },
            "stdin": {"type": "string", "description": "What `-f -` reads (YAML or JSON)."},
        },
        "required": ["args"],
        "additionalProperties": False,
    },
)

# The commands that act on the configured cluster's API and nothing else.
COMMANDS: Final = frozenset(
    {
        "get",
        "describe",
        "logs",
        "events",
        "create",
        "apply",
        "replace",
        "patch",
        "delete",
        "scale",
        "rollout",
        "label",
        "annotate",
        "set",
        "api-resources",
        "api-versions",
        "version",
    }
)
# The commands that only read, where a field selector narrows what is shown.
FIELD_SELECTING_READS: Final = frozenset({"get", "describe", "events"})
SUBCOMMANDS: Final = {
    "rollout": frozenset({"restart", "status"}),
    "set": frozenset({"image", "env"}),
}
# Why the commands an agent is likeliest to try are refused (anything else: not in the list).
REFUSED_COMMANDS: Final = {
    "proxy": "it serves the API on a local port, outside the tool's record",
    "port-forward": "it opens a connection past the API",
    "exec": "it runs a command in a container (not served)",
    "attach": "it attaches to a container (not served)",
    "cp": "it copies files between the machine and a container",
    "debug": "it starts containers and copies files",
    "plugin": "it runs other programs",
    "config": "the configuration is the environment's own",
    "edit": "it runs an editor",
    "diff": "it runs a diff program",
    "kustomize": "it reads files",
    "run": "it is not served",
    "auth": "it is not served",
    "wait": "it needs a watch (not served)",
    "completion": "it is not a request",
}
# Flags that would point kubectl elsewhere, or at another identity, or at the caller's files.
ESCAPING_FLAGS: Final = {
    "--kubeconfig": "the kubeconfig is the environment's",
    "--server": "the server is the environment's",
    "-s": "the server is the environment's",
    "--token": "the credentials are the environment's",
    "--context": "the context is the environment's",
    "--cluster": "the cluster is the environment's",
    "--user": "the user is the environment's",
    "--as": "impersonation is not the agent's to choose",
    "--as-group": "impersonation is not the agent's to choose",
    "--as-uid": "impersonation is not the agent's to choose",
    "--username": "the credentials are the environment's",
    "--password": "the credentials are the environment's",
    "--insecure-skip-tls-verify": "the server's certificate is always verified",
    "--certificate-authority": "the certificate authority is the environment's",
    "--client-certificate": "the credentials are the environment's",
    "--client-key": "the credentials are the environment's",
    "--tls-server-name": "the server is the environment's",
    "--cache-dir": "the cache is the tool's",
    "--raw": "use the resource commands",
    "--kustomize": "it reads files",
    "-k": "it reads files",
    "--template": "it may name a file: use -o go-template=…",
    "--from-file": "it reads files",
    "--from-env-file": "it reads files",
    "--patch-file": "it reads files: give the patch with -p",
    "--profile": "it writes files",
    "--profile-output": "it writes files",
    "--log-file": "it writes files",
    "--log-dir": "it writes files",
    "-v": "kubectl's request log is not a tool result",
    "--v": "kubectl's request log is not a tool result",
    "--": "no command follows kubectl's arguments",
}
# Flags an agent may give: the short ones exactly as `-x`, `-x=V` or `-xV` (value flags).
VALUE_FLAGS: Final = frozenset(
    {
        "-n",
        "--namespace",
        "-o",
        "--output",
        "-l",
        "--selector",
        "--field-selector",
        "--sort-by",
        "--tail",
        "--since",
        "--since-time",
        "-c",
        "--container",
        "--replicas",
        "--current-replicas",
        "--resource-version",
        "--type",
        "-p",
        "--patch",
        "-f",
        "--filename",
        "--dry-run",
        "--validate",
        "--cascade",
        "--grace-period",
        "--field-manager",
        "--limit-bytes",
        "--chunk-size",
        "--subresource",
        "--request-timeout",
        "-e",
        "--env",
        "--for",
        "--types",
    }
)
# The value flags kubectl declares with a default for the bare flag (pflag's NoOptDefVal: bare
# `--cascade` is `--cascade=background`, `--dry-run` is `unchanged`, `--validate` is `strict`):
# bare, such a flag takes NOTHING from the next argument, so `--cascade --all` is two flags.
# Only `--flag=value` is taken, so no reader of the arguments can disagree with kubectl on
# which argument is whose (`delete pods --cascade --all` read as `--cascade=--all` hid the
# `--all` from every check of breadth).
OPTIONAL_VALUE_FLAGS: Final = frozenset({"--cascade", "--dry-run", "--validate"})
BOOLEAN_FLAGS: Final = frozenset(
    {
        "-A",
        "--all-namespaces",
        "--all",
        "--show-labels",
        "--show-kind",
        "--no-headers",
        "--ignore-not-found",
        "--previous",
        "--timestamps",
        "--prefix",
        "--overwrite",
        "--force",
        "--wait",
        "--now",
        "--local",
        "--list",
        "--show-events",
        "--show-managed-fields",
        "--namespaced",
        "--save-config",
        "--client",
        "--help",
        "-h",
    }
)
SHORT_BOOLEANS: Final = frozenset(flag for flag in BOOLEAN_FLAGS if len(flag) == 2)
SHORT_VALUES: Final = frozenset(flag for flag in VALUE_FLAGS if len(flag) == 2)
# `-o` formats: none reads a file (`*-file=` forms and `templatefile` are refused).
OUTPUT_FORMATS: Final = frozenset({"json", "yaml", "wide", "name"})
OUTPUT_PREFIXES: Final = (
    "jsonpath=",
    "jsonpath-as-json=",
    "custom-columns=",
    "go-template=",
    "template=",
)


def read_arguments(args: Sequence[str]) -> Iterator[tuple[str | None, str]]:
    """kubectl's arguments but its command, as kubectl's flag parser reads them, in order:
    `(None, positional)` or `(flag, value)`, a value flag taking the next argument where it is
    not given in one (`-o json`, `--as --replicas=3`), a boolean flag's value "" — the one
    reading every reader of the arguments shares (`_kubectl_flags.read_command_line`, kubectl's
    arity table), so none reads a flag's value as a positional or the reverse."""
    items = read_command_line(args).items
    command = next((i for i, (flag, _) in enumerate(items) if flag is None), None)
    for index, item in enumerate(items):
        if index != command:
            yield item


# The spellings kubectl's flag parser (pflag, through Go's `strconv.ParseBool`) reads a boolean
# flag's `=value` as; any other is a parse error, and kubectl runs nothing.
PFLAG_TRUE: Final = frozenset({"1", "t", "T", "TRUE", "true", "True"})
PFLAG_FALSE: Final = frozenset({"0", "f", "F", "FALSE", "false", "False"})


def flag_on(values: Sequence[str]) -> bool:
    """Whether kubectl reads a boolean flag given these values (in argument order, "" for the
    bare flag) as true: pflag keeps the LAST occurrence, and the bare flag is true. Every reader
    of the arguments asks this, never whether the flag is present (SI red team 32, A3:
    `--local=false` and `--ignore-not-found=false` read by presence hid a sent write)."""
    if not values:
        return False
    last = values[-1]
    return last == "" or last in PFLAG_TRUE


# The `--dry-run` values kubectl 1.32 runs a dry run for (`cmdutil.GetDryRunStrategy`): bare
# (pflag's NoOptDefVal `unchanged`, "deprecated … replaced with --dry-run=client"), `client`,
# `server`, and a boolean `strconv.ParseBool` reads true (a client dry run). `none` and the
# false booleans write; any other value is an error before any request, read here as a write
# (the broader reading: never a dry run kubectl would not run).
DRY_RUNS: Final = frozenset({"", "unchanged", "client", "server"}) | PFLAG_TRUE


def dry_run(values: Sequence[str]) -> bool:
    """Whether kubectl runs a dry run given these `--dry-run` values in argument order: pflag
    keeps the LAST one (`--dry-run=client --dry-run=none` writes: SI red team 32, A1), read as
    kubectl reads it (`DRY_RUNS`: bare is a client dry run, `=false` a write). A `--raw`
    request is sent whatever `--dry-run` says (kubectl's raw writes never read the flag)."""
    return bool(values) and values[-1] in DRY_RUNS


def flag_values(args: Sequence[str], *names: str) -> list[str]:
    """The values of the flag spelled any of `names`, in argument order, as `read_arguments`
    reads the arguments."""
    return [value for flag, value in read_arguments(args) if flag is not None and flag in names]


def _value_problem(flag: str, value: str) -> str | None:
    if flag in ("-o", "--output"):
        if value in OUTPUT_FORMATS or value.startswith(OUTPUT_PREFIXES):
            return None
        return (
            f"output format {value!r} is not allowed (json, yaml, wide, name, jsonpath=…, "
            "custom-columns=…, go-template=…: none that reads a file)"
        )
    if flag in ("-f", "--filename") and value != "-":
        return f"{flag} {value!r}: only `-f -` (the tool's stdin) is allowed; no file is read"
    if flag in ("-l", "--selector") and not all(
        EQUALITY_TERM.match(term.strip()) for term in value.split(",")
    ):
        # The records name a selector's breadth by its equality terms (`app:api`); a term of
        # another form (`!=`, `in (…)`, `notin`, `key`, `!key`) would be read as a different
        # selector than the one kubectl sends, so it is refused (the Kubernetes face serves
        # equality selectors only): a forbidden pattern is never missed by a spelling.
        return (
            f"{flag} {value!r}: give equality terms only (key=value or key==value, comma-separated)"
        )
    if flag == "--dry-run" and value not in DRY_RUN_VALUES:
        # kubectl reads `--dry-run=false` as no dry run (a real write): only its own three
        # values are taken, so every reader of the arguments agrees with kubectl on whether
        # the command writes.
        return f"--dry-run={value!r}: give none, client or server"
    return None


DRY_RUN_VALUES: Final = frozenset({"none", "client", "server"})
# One equality term of a label selector: `key=value` or `key==value` (what the face serves).
EQUALITY_TERM: Final = re.compile(r"^[A-Za-z0-9_./-]+\s*==?\s*[A-Za-z0-9_.:/-]*$")


def argv_problem(args: list[str]) -> str | None:
    """Why the kubectl tool refuses these arguments, or None. Every argument that begins with
    `-` is a flag to kubectl wherever it stands (kubectl's flag parser reads it so), so each is
    checked, and a value kubectl reads from the next argument is checked where it matters."""
    if not args:
        return 'give at least a command, e.g. ["get", "pods"]'
    if len(args) > MAX_ARGUMENTS:
        return f"at most {MAX_ARGUMENTS} arguments"
    for index, argument in enumerate(args):
        if "\x00" in argument:
            return f"args[{index}] contains a NUL character"
    command = args[0]
    if command not in COMMANDS:
        why = REFUSED_COMMANDS.get(command)
        if why is not None:
            return f"`kubectl {command}` is not allowed: {why}"
        if command.startswith("-"):
            return f"args[0] must be the command (get, describe, …), not the flag {command!r}"
        return f"`kubectl {command}` is not allowed (commands: {', '.join(sorted(COMMANDS))})"
    subcommands = SUBCOMMANDS.get(command)
    if subcommands is not None and (len(args) < 2 or args[1] not in subcommands):
        return f"`kubectl {command}` takes one of: {', '.join(sorted(subcommands))}"
    index = 1
    while index < len(args):
        argument = args[index]
        index += 1
        if not argument.startswith("-") or argument == "-":
            continue
        flag, value = split_flag(argument)
        why = ESCAPING_FLAGS.get(flag)
        if why is not None:
            return f"args[{index - 1}]: {flag} is not allowed: {why}"
        if argument.startswith("--") and flag in BOOLEAN_FLAGS:
            # kubectl reads `--all=T`, `--all=1`, `--all=True` as true: only the spellings every
            # reader of these arguments agrees on are taken (bare, `=true`, `=false`).
            if value is not None and value not in ("true", "false"):
                return (
                    f"args[{index - 1}]: {flag}={value!r}: give a boolean flag bare, "
                    "or as =true or =false"
                )
            continue  # `--force`, `--wait=false`
        if flag in SHORT_BOOLEANS and value is None:
            continue
        if flag not in VALUE_FLAGS:
            if len(flag) == 2 and not argument.startswith("--"):
                return (
                    f"args[{index - 1}]: {argument!r} is not allowed (give each short flag on "
                    "its own; allowed flags are the common ones of get, describe, logs and the "
                    "writes)"
                )
            return f"args[{index - 1}]: {flag} is not allowed"
        if flag in OPTIONAL_VALUE_FLAGS and value is None:
            return f"args[{index - 1}]: give {flag} with its value in one argument, {flag}=VALUE"
        if flag == "--field-selector" and command not in FIELD_SELECTING_READS:
            # A write over a field selector is as broad as one over a label selector, but the
            # record names its objects one by one: refused, so breadth is never hidden.
            return (
                f"args[{index - 1}]: --field-selector is allowed on reads only "
                f"({', '.join(sorted(FIELD_SELECTING_READS))}); name the objects, or use -l"
            )
    # Each flag's value as kubectl reads it (`-o json`, `-f -`: the next argument), from the one
    # reading every reader shares: the value checked is the value kubectl uses.
    for flag, value in read_command_line(args).flags:
        if flag in VALUE_FLAGS and not (flag in OPTIONAL_VALUE_FLAGS and value == ""):
            problem = _value_problem(flag, value)
            if problem is not None:
                return problem
    return _unreported_write(args)


# The writes that send nothing when they find nothing to change: kubectl's default report
# (`configured` / `unchanged`, `image updated` / nothing) is the only word of whether they
# wrote.
UNSURE_WRITES: Final = frozenset({"apply", "set"})
_UNSENT_FLAGS: Final = frozenset({"--local", "--list"})


def _unreported_write(args: list[str]) -> str | None:
    """Why an `apply` or `set` with `-o` is refused: kubectl sends their write only where the
    object differs, and `-o` prints the object (or its name) either way, so nothing would say
    whether the agent wrote — a provider that gave the write to a controller and froze the
    state hid `apply -f - -o name` (SI red team 31, H1b). Given with a dry run, `--local` or
    `--list` it writes nothing, and `-o` is allowed."""
    if args[0] not in UNSURE_WRITES:
        return None
    # as kubectl reads them: the last `--dry-run` / `--local` / `--list` wins, never the first
    # (SI red team 32, A1: `--dry-run=client --dry-run=none -o name` is a real, unreported write)
    if dry_run(flag_values(args, "--dry-run")):
        return None
    if any(flag_on(flag_values(args, flag)) for flag in sorted(_UNSENT_FLAGS)):
        return None
    if not flag_values(args, "-o", "--output"):
        return None
    return (
        f"`kubectl {args[0]} -o` is not allowed: kubectl writes only what differs and `-o` "
        "hides whether it did; give it without -o (its report says `configured` or "
        "`unchanged`), or with --dry-run"
    )


def arguments_problem(
    arguments: Mapping[str, JsonValue],
) -> tuple[list[str], str | None, str | None]:
    """The call's `args` and `stdin`, and why they are refused (or None)."""
    extra = sorted(set(arguments) - {"args", "stdin"})
    if extra:
        return [], None, f"unknown argument {extra[0]!r} (give `args` and optionally `stdin`)"
    args = arguments.get("args")
    if not isinstance(args, list) or not all(isinstance(item, str) for item in args):
        return [], None, "`args` must be a list of strings (kubectl's arguments, no shell)"
    stdin = arguments.get("stdin")
    if stdin is not None and not isinstance(stdin, str):
        return [], None, "`stdin` must be a string"
    if stdin is not None and len(stdin) > MAX_STDIN:
        return [], None, f"`stdin` is longer than {MAX_STDIN} characters"
    strings = [item for item in args if isinstance(item, str)]
    return strings, stdin, argv_problem(strings)


def kubectl_path() -> str | None:
    """The kubectl executable on PATH, or None."""
    return shutil.which("kubectl")


def require_kubectl() -> str:
    """The kubectl executable; a one-line error when it is not installed."""
    found = kubectl_path()
    if found is None:
        raise ProvebenchError(KUBECTL_MISSING, field="--kubectl")
    return found


def _capped(text: str) -> str:
    if len(text) <= OUTPUT_CAP:
        return text
    return text[:OUTPUT_CAP] + f"\n[output cut at {OUTPUT_CAP} characters]\n"


class KubectlRunner:
    """kubectl for one environment: its kubeconfig in a private folder; `close` removes it."""

    def __init__(
        self, kubeconfig: str, *, executable: str, timeout_sec: float = DEFAULT_TIMEOUT_SEC
    ) -> None:
        self.executable = executable
        self.timeout_sec = timeout_sec
        self._home = Path(tempfile.mkdtemp(prefix="provebench-kubectl-"))  # made 0700
        self._config = self._home / "kubeconfig"
        descriptor = os.open(self._config, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(kubeconfig)

    def close(self) -> None:
        shutil.rmtree(self._home, ignore_errors=True)

    def __enter__(self) -> KubectlRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _environment(self) -> dict[str, str]:
        return {
            "HOME": str(self._home),
            "KUBECONFIG": str(self._config),
            "PATH": "/usr/bin:/bin",
            "LC_ALL": "C.UTF-8",
        }

    def call(self, arguments: Mapping[str, JsonValue]) -> ToolResponse:
        """One tool call: refused before anything runs, or kubectl's exit status and output."""
        args, stdin, problem = arguments_problem(arguments)
        if problem is not None:
            return ToolResponse(body="", error=f"kubectl: {problem}", error_code="refused_argument")
        return self.run(args, stdin)

    def run(self, args: list[str], stdin: str | None = None) -> ToolResponse:
        """kubectl with `args` (already allowed), its stdin `stdin`."""
        process = subprocess.Popen(
            [self.executable, *args],
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=self._environment(),
            cwd=self._home,
            start_new_session=True,  # its own process group: a timeout ends all of it
        )
        try:
            out, err = process.communicate(
                None if stdin is None else stdin.encode(), timeout=self.timeout_sec
            )
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return ToolResponse(
                body="",
                error=f"kubectl did not finish within {self.timeout_sec:g} s and was stopped",
                error_code="timeout",
            )
        except BaseException:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            raise
        stdout = _capped(out.decode("utf-8", errors="replace"))
        stderr = _capped(err.decode("utf-8", errors="replace"))
        body = stdout
        if stderr:
            # Standard error after its own marker line, so the output's lines stay verbatim.
            separator = "" if not stdout or stdout.endswith("\n") else "\n"
            body = f"{stdout}{separator}[stderr]\n{stderr}"
        if process.returncode == 0:
            return ToolResponse(body=body)
        last = next((line for line in reversed(stderr.splitlines()) if line.strip()), "")
        return ToolResponse(
            body=body,
            error=f"kubectl exited with status {process.returncode}"
            + (f": {last}" if last else ""),
            error_code="exit_status",
        )


__all__ = [
    "BOOLEAN_FLAGS",
    "DEFAULT_TIMEOUT_SEC",
    "ESCAPING_FLAGS",
    "KUBECTL_MISSING",
    "KUBECTL_SPEC",
    "OPTIONAL_VALUE_FLAGS",
    "TOOL_NAME",
    "UNSURE_WRITES",
    "VALUE_FLAGS",
    "KubectlRunner",
    "arguments_problem",
    "argv_problem",
    "dry_run",
    "flag_on",
    "flag_values",
    "kubectl_path",
    "read_arguments",
    "require_kubectl",
    "split_flag",
]
