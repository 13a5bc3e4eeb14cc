"""The server process: configuration, command line, telnet listener, connections, the hub."""
