"""The tactical battle window (arcade).  Only this package imports arcade."""
