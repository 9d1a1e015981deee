"""The battleboard's window (the only battleboard package that imports arcade)."""
