"""A Discord-faithful loopback: real HTTP and gateway on 127.0.0.1, bots in their own processes.

`server.LoopbackDiscord` plays Discord for one bot process (REST, gateway, interactions, a message store
that refuses presses on ids no longer drawn); `run_farkle` and `trivial_bot` are the two bots it serves;
`players` presses like a member would; `profiling` turns a cProfile of the bot into buckets.
`bench/discord_load.py` is the entry point.
"""
