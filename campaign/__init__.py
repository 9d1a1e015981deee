"""Bellum Civile — the campaign layer."""
