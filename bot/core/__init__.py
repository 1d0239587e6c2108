"""Plain values every layer above the engine reads: environment settings, server settings, records, time."""
