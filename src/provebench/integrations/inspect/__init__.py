"""provebench in Inspect AI (docs/inspect.md): the laboratories as Inspect tasks and the verdicts
as scorers (`tasks`, registered through Inspect's `inspect_ai` entry point), and Inspect logs
read as provebench evidence (`_evidence`, `provebench evidence import --format inspect`).

Nothing is imported here: reading a log must not load the tasks, and the tasks load Inspect.
"""
