"""Views of the kernel (the main menu).  Only ``view`` modules import arcade."""
