"""The campaign window (arcade).  ``model`` and ``geometry`` are arcade-free; the rest draws."""
