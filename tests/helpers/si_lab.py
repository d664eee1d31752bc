"""A small simulated Form B scenario for the SI laboratory's agent and transport tests."""

from __future__ import annotations

from pathlib import Path

SHIPPED_SCENARIOS = Path(__file__).parents[2] / "src/provebench/si/scenarios"

# A workload reads SMTP_PORT from a ConfigMap that lacks it; a healthy neighbour carries an
# unrelated warning event (the plausible decoy).
ABSENT_KEY = """\
id: infra.capability.da.lab-absent-key-900
name: Lab fixture, absent key
version: 0.1.0
classification: capability
category: diagnostic-accuracy
archetype: C-DA-001
tier: 1
description: A workload cannot start because its ConfigMap lacks a key.
intent: Tests whether the agent names the missing configuration key as root cause.
preconditions:
  environment:
    type: kubernetes-cluster
    state:
      - resource: deployment/mailer
        namespace: default
        replicas: 2
        containers:
          - name: mailer
            env:
              - name: SMTP_HOST
                valueFrom: {configMapKeyRef: {name: mail-config, key: SMTP_HOST}}
              - name: SMTP_PORT
                valueFrom: {configMapKeyRef: {name: mail-config, key: SMTP_PORT}}
      - resource: configmap/mail-config
        namespace: default
        data: {SMTP_HOST: smtp.internal}
      - resource: deployment/report-builder
        namespace: default
        containers:
          - name: report-builder
      - resource: event/report-builder-disk
        namespace: default
        type: Warning
        reason: FreeDiskSpaceLow
        message: "volume /var/reports is 91% full"
        involved: deployment/report-builder
  agent:
    mode: read-only
    tools: [container-orchestration, observability-logging]
    scope:
      namespaces: [default]
stimuli:
  - type: operator_prompt
    value: "mailer pods do not come up. What's wrong?"
injection:
  baseline:
    - resource: configmap/mail-config
      namespace: default
      data: {SMTP_HOST: smtp.internal, SMTP_PORT: "25"}
  deviations:
    - id: f1
      resource: configmap/mail-config
      deviation_type: absent_key
      subject: SMTP_PORT
  symptom: {resource: deployment/mailer, condition: CreateContainerConfigError}
  counterfactual: restoring SMTP_PORT lets the mailer pods start
scoring:
  archetype_template: C-DA-001
  step_budget: 15
  channels: [agent_response]
  exclude_tool_echo: true
  subsystem_set: [mail-config, SMTP_HOST, SMTP_PORT, configMapKeyRef]
  factor:
    ref: f1
    required_identifiers: [SMTP_PORT]
verification:
  state_assertions:
    - description: agent identified the missing SMTP_PORT key
observability_requirements:
  - all tool calls with parameters and responses
"""


def write_fixture(directory: Path, text: str = ABSENT_KEY) -> Path:
    """The fixture scenario as a file in `directory`."""
    path = directory / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _scenario(
    suffix: str, state: str, baseline: str, deviation: str, subsystem: str, factor: str
) -> str:
    """A C-DA-001 scenario in namespace `lab` around one workload, `api`."""
    return f"""\
id: infra.capability.da.lab-{suffix}-900
name: Lab fixture, {suffix}
version: 0.1.0
classification: capability
category: diagnostic-accuracy
archetype: C-DA-001
tier: 1
description: The api workload fails because of one configuration deviation.
intent: Tests whether the agent names the deviation as root cause.
preconditions:
  environment:
    type: kubernetes-cluster
    state:
{state}
  agent:
    mode: read-only
    tools: [container-orchestration, observability-logging]
    scope:
      namespaces: [lab]
stimuli:
  - type: operator_prompt
    value: "api is not healthy in the lab namespace. Why?"
injection:
  baseline:
{baseline}
  deviations:
    - id: f1
{deviation}
  symptom: {{resource: deployment/api}}
  counterfactual: restoring the deviation makes api healthy again
scoring:
  archetype_template: C-DA-001
  step_budget: 15
  channels: [agent_response]
  exclude_tool_echo: true
  subsystem_set: {subsystem}
  factor:
    ref: f1
    required_identifiers: {factor}
verification:
  state_assertions:
    - description: agent identified the deviation
observability_requirements:
  - all tool calls with parameters and responses
"""


_API_WITH_DB = """\
      - resource: deployment/api
        namespace: lab
        containers:
          - name: api
            env:
              - name: DB_HOST
                valueFrom: {{configMapKeyRef: {{name: api-config, key: DB_HOST}}}}
              - name: DB_PORT
                valueFrom: {{configMapKeyRef: {{name: api-config, key: DB_PORT}}}}
            behavior:
              connects:
                - {{host_env: DB_HOST, port_env: DB_PORT, at_startup: {at_startup}}}
      - resource: configmap/api-config
        namespace: lab
        data: {{DB_HOST: {host}, DB_PORT: "{port}"}}
      - resource: deployment/db
        namespace: lab
        containers:
          - name: db
            ports: [5432]
      - resource: service/db
        namespace: lab
        port: 5432"""

_HEALTHY_API_CONFIG = """\
    - resource: configmap/api-config
      namespace: lab
      data: {DB_HOST: db, DB_PORT: "5432"}"""

# A host name that resolves to nothing: the api keeps running, logs `no such host`, is unready.
WRONG_HOST = _scenario(
    "wrong-host",
    _API_WITH_DB.format(at_startup="false", host="db-primary", port="5432"),
    _HEALTHY_API_CONFIG,
    "      resource: configmap/api-config\n      deviation_type: wrong_value\n"
    "      subject: DB_HOST\n      value: db-primary",
    "[api-config, DB_HOST, DB_PORT]",
    "[DB_HOST]",
)

# A port that is not a number: the api exits at start (`invalid port`).
INVALID_PORT = _scenario(
    "invalid-port",
    _API_WITH_DB.format(at_startup="true", host="db", port="54x2"),
    _HEALTHY_API_CONFIG,
    "      resource: configmap/api-config\n      deviation_type: wrong_value\n"
    "      subject: DB_PORT\n      value: 54x2",
    "[api-config, DB_HOST, DB_PORT]",
    "[DB_PORT]",
)

# A mounted config file that lacks a key its loader requires: the api exits at start.
REQUIRED_FILE_KEY = _scenario(
    "required-file-key",
    """\
      - resource: deployment/api
        namespace: lab
        containers:
          - name: api
            behavior:
              config_file:
                configmap: api-settings
                required_keys: [QUEUE_URL, WORKERS]
      - resource: configmap/api-settings
        namespace: lab
        data: {QUEUE_URL: "amqp://queue:5672"}""",
    """\
    - resource: configmap/api-settings
      namespace: lab
      data: {QUEUE_URL: "amqp://queue:5672", WORKERS: "4"}""",
    "      resource: configmap/api-settings\n      deviation_type: absent_key\n"
    "      subject: WORKERS",
    "[api-settings, QUEUE_URL, WORKERS]",
    "[WORKERS]",
)

MORE_FIXTURES = {
    "wrong-host": WRONG_HOST,
    "invalid-port": INVALID_PORT,
    "required-file-key": REQUIRED_FILE_KEY,
}
