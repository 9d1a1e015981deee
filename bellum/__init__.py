"""Bellum Civile — the shared kernel.

The kernel holds only what all three engines (``campaign``, ``battleboard``,
``tactical``) use: explicit dice, the event log, typed errors, safe TOML input,
saves, the rules-case runner and the command line.  It never imports arcade;
only modules under ``bellum.view`` do.
"""

__version__ = "0.1.0"
