"""Pure drawing: snapshots and records in, embeds and buttons out."""
