"""kubectl's own reading of an argument list: which argument is the command, which a flag, and
which value is whose (docs/si-provider.md, "kubectl against a provider").

kubectl (cobra over pflag) reads its arguments in two passes. To find the command it strips
the flags it knows at that level — its global flags (`kubectl options`) — and takes any other
flag given bare (`--all`, `-x`, no `=`) to take the next argument as its value; then it reads
every argument with the command's own flags and the global ones: a flag that takes a value
takes the next argument where it is not given in one (`--as --replicas=3` is `--as` with the
value `--replicas=3`), a boolean flag takes none, a value flag with a default for the bare flag
(pflag's NoOptDefVal: `--dry-run`, `--cascade`, `--validate`) takes only `=value`; short
booleans may be joined (`-Av=6` is `-A -v=6`). Every reader of the agent's arguments — the
allowlist's, a refused command's, a declined write's, an allowed write's, the accounting's —
reads them through `read_command_line`, so none can disagree with kubectl or with another on
which argument is a flag's value (SI red team 33, A7: `scale deployment/web-app
--replicas=5000 --as --replicas=3`, refused, was recorded as a scale to 3 by a reader that did
not know `--as` takes a value).

The table is kubectl 1.32's (its global flags, and every command's flags from `kubectl CMD
--help`): a spelling that takes a value in one command and none in another is read by the
command (`logs -f` follows, `-f` elsewhere names a file).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final


def _spelled(text: str) -> frozenset[str]:
    """The flags a block of text names, one word each."""
    return frozenset(text.split())


# kubectl's global flags (`kubectl options`): each takes a value but these.
GLOBAL_BOOLEANS: Final = frozenset(
    {
        "--insecure-skip-tls-verify",
        "--match-server-version",
        "--disable-compression",
        "--warnings-as-errors",
        "-h",
        "--help",
    }
)
GLOBAL_VALUES: Final = _spelled(
    """
    --as --as-group --as-uid --cache-dir --certificate-authority --client-certificate
    --client-key --cluster --context --kubeconfig --log-flush-frequency -n --namespace
    --password --profile --profile-output --request-timeout -s --server --tls-server-name
    --token --user --username -v --v --vmodule
    """
)
# Every command's own flags that take a value, and those that take none (kubectl 1.32,
# `kubectl CMD --help` of every command and subcommand).
COMMAND_VALUES: Final = _spelled(
    """
    --accept-hosts --accept-paths --address --aggregation-rule --annotation --annotations
    --api-group --api-prefix --api-version --audience --auth-provider --auth-provider-arg
    --bound-object-kind --bound-object-name --bound-object-uid --cascade --categories --cert
    --chunk-size --class --cluster-ip --clusterip --clusterrole --concurrency --container
    --containers --copy-to --cpu-percent --current-replicas --custom --default-backend
    --description --docker-email --docker-password --docker-server --docker-username
    --dry-run --duration --env --exec-api-version --exec-arg --exec-command --exec-env
    --exec-interactive-mode --external-ip --external-name --field-manager --field-selector
    --filename --for --from --from-env-file --from-file --from-literal --grace-period
    --group --hard --helm-api-versions --helm-command --helm-kube-version --image
    --image-pull-policy --keepalive --key --keys --kustomize --label-columns --labels
    --limit-bytes --limits --load-balancer-ip --load-restrictor --max --max-log-requests
    --max-unavailable --min --min-available --mount --name --namespaces --network-name
    --node-port --non-resource-url --output --output-directory --override-type --overrides
    --patch --patch-file --pod-running-timeout --pod-selector --port --preemption-policy
    --prefix --protocol --proxy-url --prune-allowlist --raw --reject-methods --reject-paths
    --replicas --requests --resource --resource-name --resource-version --restart --retries
    --revision --role --rule --schedule --scopes --selector --serviceaccount
    --session-affinity --set-image --since --since-time --skip-wait-for-delete-timeout
    --sort-by --subresource --tail --target --target-port --tcp --template --timeout
    --to-revision --type --types --unix-socket --validate --value --verb --verbs --www
    --www-prefix
    -L -P -c -e -f -k -l -o -p -r -u
    """
)
COMMAND_BOOLEANS: Final = _spelled(
    """
    --all --all-containers --all-namespaces --all-pods --allow-missing-template-keys
    --append-hash --append-server-path --arguments-only --as-current-user --attach --cached
    --client --command --create-annotation --current --delete-emptydir-data
    --disable-eviction --disable-filter --edit --embed-certs --enable-alpha-plugins
    --enable-helm --exec-provide-cluster-info --expose --flatten --follow --force
    --force-conflicts --global-default --helm-debug --ignore-daemonsets --ignore-errors
    --ignore-not-found --insecure-skip-tls-verify --insecure-skip-tls-verify-backend
    --interactive --keep-annotations --keep-init-containers --keep-labels --keep-liveness
    --keep-readiness --keep-startup --leave-stdin-open --list --local --merge --minify
    --name-only --namespaced --network --no-headers --no-preserve --now --openapi-patch
    --output-patch --output-watch-events --overwrite --previous --privileged --prune --quiet
    --recursive --remove-extra-permissions --remove-extra-subjects --replace --resolve --rm
    --same-node --save-config --server-print --server-side --set-raw-bytes --share-processes
    --show-capacity --show-events --show-kind --show-labels --show-managed-fields --stdin
    --sum --timestamps --tty --use-protocol-buffers --wait --watch --watch-only
    --windows-line-endings
    -A -R -i -q -t -w
    """
) | {"--record"}  # deprecated, so `--help` does not list it; kubectl still reads it bare
# The spellings whose arity is the command's own: True where it takes a value there.
BY_COMMAND: Final[dict[str, dict[str, bool]]] = {
    "logs": {"-f": False, "-p": False, "--prefix": False},
    "proxy": {"-w": True},
    "config view": {"--raw": False},
    "top pod": {"--containers": False},
}
# The value flags with a default for the bare flag: bare, each takes nothing from the next
# argument (`--cascade --all` is two flags); only `--flag=value` gives another.
OPTIONAL_VALUES: Final = frozenset({"--cascade", "--dry-run", "--validate"})
# The commands whose first positional after them is a subcommand, with flags of its own.
GROUPS: Final = frozenset(
    {"apply", "auth", "certificate", "config", "create", "plugin", "rollout", "set", "top"}
)


def split_flag(argument: str) -> tuple[str, str | None]:
    """`--name=value` → (`--name`, value); `-xVALUE` / `-x=VALUE` → (`-x`, value)."""
    if argument.startswith("--"):
        name, equals, value = argument.partition("=")
        return name, value if equals else None
    if len(argument) > 2:
        value = argument[2:]
        return argument[:2], value[1:] if value.startswith("=") else value
    return argument, None


@dataclass(frozen=True)
class CommandLine:
    """An argument list as kubectl reads it from its first argument: each argument in order,
    `(None, positional)` or `(flag, value)` (a flag given bare, or with no argument left for
    its value: ""), and whether every flag's arity was known — where one was not (a flag
    kubectl does not have, given bare; a flag before the command that kubectl would read as
    taking the command as its value) which positional is the command is not certain."""

    items: tuple[tuple[str | None, str], ...]
    exact: bool

    @property
    def positionals(self) -> tuple[str, ...]:
        """The command, a group's subcommand, then the command's arguments, in order."""
        return tuple(value for flag, value in self.items if flag is None)

    @property
    def flags(self) -> tuple[tuple[str, str], ...]:
        return tuple((flag, value) for flag, value in self.items if flag is not None)


def _takes_value(flag: str, path: str) -> bool | None:
    """Whether ``flag`` takes a value in the command ``path`` (`logs`, `top pod`); None where
    kubectl has no such flag."""
    if flag in GLOBAL_VALUES:
        return True
    if flag in GLOBAL_BOOLEANS:
        return False
    own = BY_COMMAND.get(path, {}).get(flag)
    if own is None:
        top = path.split(" ", 1)[0]
        own = BY_COMMAND.get(top, {}).get(flag)
    if own is not None:
        return own
    if flag in COMMAND_VALUES:
        return flag not in OPTIONAL_VALUES
    if flag in COMMAND_BOOLEANS or flag in OPTIONAL_VALUES:
        return False
    return None


def _command_path(args: Sequence[str]) -> tuple[str, bool]:
    """The command (and a group's subcommand) cobra finds, and whether it found it without
    guessing: a bare flag it does not know globally is taken to take the next argument."""
    found: list[str] = []
    guessed = False
    index = 0
    while index < len(args) and len(found) < (2 if found[:1] and found[0] in GROUPS else 1):
        argument = args[index]
        index += 1
        if argument == "--":
            break
        if not argument.startswith("-") or argument == "-":
            found.append(argument)
            continue
        flag, value = split_flag(argument)
        if value is not None or flag in GLOBAL_BOOLEANS:
            continue
        if flag not in GLOBAL_VALUES:
            guessed = True
        index += 1
    return " ".join(found), not guessed


def read_command_line(args: Sequence[str]) -> CommandLine:
    """``args`` (kubectl's arguments, the command among them) as kubectl reads them (the
    module's reading)."""
    path, exact = _command_path(args)
    items: list[tuple[str | None, str]] = []
    index = 0
    while index < len(args):
        argument = args[index]
        index += 1
        if argument == "--":  # everything after it is an argument, never a flag
            items += [(None, rest) for rest in args[index:]]
            break
        if not argument.startswith("-") or argument == "-":
            items.append((None, argument))
            continue
        if not argument.startswith("--"):
            # joined shorthands: each boolean one stands alone (`-Av=6` is `-A -v=6`)
            while (
                len(argument) > 2
                and argument[2] != "="
                and _takes_value(argument[:2], path) is False
            ):
                items.append((argument[:2], ""))
                argument = "-" + argument[2:]
        flag, value = split_flag(argument)
        takes = _takes_value(flag, path)
        if takes is None and value is None:
            exact = False  # kubectl has no such flag: whether it took the next is not known
        if takes and value is None and index < len(args):
            value = args[index]
            index += 1
        items.append((flag, "" if value is None else value))
    line = CommandLine(tuple(items), exact)
    if exact and " ".join(line.positionals[: len(path.split())]) != path:
        return CommandLine(line.items, False)
    return line


__all__ = [
    "BY_COMMAND",
    "COMMAND_BOOLEANS",
    "COMMAND_VALUES",
    "GLOBAL_BOOLEANS",
    "GLOBAL_VALUES",
    "OPTIONAL_VALUES",
    "CommandLine",
    "read_command_line",
    "split_flag",
]
