"""Bellum Civile — the tactical layer."""
