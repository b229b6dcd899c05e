"""The transformers backend: local models for log-prob MCQ scoring and generation.

torch and transformers are imported inside functions, on first use: importing this package (or
`w2c_tui.runs.local.executor`) stays cheap.
"""
