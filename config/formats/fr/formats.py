"""Dates as the French pages write them: 1 décembre 2026."""

DATE_FORMAT = "j F Y"
