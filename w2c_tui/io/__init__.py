"""Readers and writers of external formats, validated at the edge."""
