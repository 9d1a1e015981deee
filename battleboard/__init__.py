"""Bellum Civile — the battleboard layer."""
