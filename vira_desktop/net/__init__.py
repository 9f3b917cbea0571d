"""Network play: a WebSocket host for tables in play (:mod:`.host`), a headless client
(:mod:`.client`), and the messages between them (:mod:`.protocol`, ``docs/network-protocol.md``).
The rules never know there is a network: the host drives each table's master through its
seat ports, as a window does."""
