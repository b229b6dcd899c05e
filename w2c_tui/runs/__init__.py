"""Evaluation runs: prompt rendering, model backends, log-prob scoring, judging, checkpoints.

No Textual, no SQLModel here; heavy libraries (torch, transformers, openai) are imported inside
the backends on first use.
"""
