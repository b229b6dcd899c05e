"""Frozen domain objects and enums shared by every layer; no I/O here."""
