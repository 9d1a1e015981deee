"""The plain screen of texts, boxes and buttons the campaign's save dialog, load screen and
end-of-war screen are built on: the kernel's ``bellum.view.screen`` (moved there so every
window may use it), re-exported here."""

from __future__ import annotations

from bellum.view.screen import BUTTON, BUTTON_H, BUTTON_INK, BUTTON_OFF, DIM, INK_RGBA, WARN, Screen

__all__ = ["BUTTON", "BUTTON_H", "BUTTON_INK", "BUTTON_OFF", "DIM", "INK_RGBA", "WARN", "Screen"]
