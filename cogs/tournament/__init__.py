"""`/farkle tournament` on Discord, by job: `commands.py` (the subcommands, a mixin of the `/farkle` cog),
`button.py` (the card's and the match calls' buttons) and `desk.py` (the `TournamentDesk` cog: what the
tournament door says, shown as card edits, match threads and calls, game boards and podiums).

The door is `bot.sessions.tournament.door.Tournaments`; every game board goes out through the board edge.
"""
