"""Vira Desktop: Sweden's national card game at a desktop card table."""

__version__ = "0.1.0"
