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
