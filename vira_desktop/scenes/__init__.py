"""The game window's scenes (pygame-ce + pygame-gui); arrives with the table issue."""
