"""The only door to daily attempts (`door.DailyManager`) and the attempt the layers above see."""
