"""The only door to a tournament (`door.Tournaments`) and its jobs: sign-up, matches, results, state."""
