"""Dates as the English pages write them: 1 Dec 2026 (one format on every page)."""

DATE_FORMAT = "j M Y"
