"""The session layer: drives deals for the window, the command line, records and lessons.

``rules ← ai ← session ← scenes / cli``: it may use the engine and the bots,
never the window.
"""
