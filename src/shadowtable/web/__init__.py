"""The browser pages of ``shadowtable serve``: the lobby, the table page and the boards."""
