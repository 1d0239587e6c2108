"""What members ask of a game, lobby and turn: each command runs on a session its caller has locked.

Every change ends in `UnitOfWork.commit`; a refusal is an `Outcome` with the sentence to show.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.core.clock import Clock
from bot.engine import LEVELS, DiceSource, Event, Game, IllegalAction, Ruleset
from bot.engine.history import Removed, TimedOut, TurnStarted
from bot.engine.messages import Listing, Message
from bot.engine.skilled import HIGHEST_SKILL, LOWEST_SKILL, skill_of_level
from bot.sessions.actions import LOBBY_ACTIONS, TURN_ACTIONS, ButtonAction
from bot.sessions.banking import banking_keep
from bot.sessions.chances import LiveChances
from bot.sessions.outcome import Outcome
from bot.sessions.registry import GameRegistry
from bot.sessions.requests import Host, Press
from bot.sessions.session import Seat, Session, TableSettings, new_game_id
from bot.sessions.skill_levels import MemberSkill, chosen_level, no_skill
from bot.sessions.unit_of_work import UnitOfWork

OUTDATED = Message(
    "This board is out of date: use the newest board in the channel (`/farkle board` shows it)."
)
NO_LOBBY = Message("There is no open lobby here: start one with `/farkle new`.")
NO_GAME = Message("There is no Farkle game in this channel.")
GAME_OVER = Message("This game is over.")
NOT_OF_THIS_GAME = Message("That button is not part of this game.")


class GameCommands:
    def __init__(
        self,
        uow: UnitOfWork,
        games: GameRegistry,
        clock: Clock,
        dice: Callable[[], DiceSource],
        default_table: TableSettings,
        skills: MemberSkill = no_skill,
        chances: LiveChances | None = None,
    ) -> None:
        """`chances` estimates the live chances of games of three or more at each turn; None: none."""
        self._uow = uow
        self._games = games
        self._clock = clock
        self._dice = dice
        self.default_table = default_table
        self._skills = skills
        self._chances = chances

    # ------------------------------------------------------------------ lobby

    async def open_lobby(
        self,
        existing: Session | None,
        host: Host,
        rules: Ruleset,
        table: TableSettings | None,
        replacing: int | None,
    ) -> Outcome:
        """A new lobby in the host's channel, unless one is running there; its row replaces the stored one
        at revision `replacing` (None: there is none)."""
        if existing is not None and existing.stage in ("lobby", "playing"):
            if existing.stage == "lobby":
                return Outcome.refuse(Message("There is already a Farkle lobby in this channel."))
            return Outcome.refuse(Message("There is already a Farkle game in this channel."))
        session = Session(
            game_id=new_game_id(),
            guild_id=host.guild_id,
            channel_id=host.channel_id,
            host_id=host.user_id,
            rules=rules,
            table=table or self.default_table,
            revision=replacing,
            host_skill=await self._skills(host.guild_id, host.user_id),
        )
        if not rules.teams:
            session.seats.append(Seat(host.user_id, host.name))
        self._games.put(session)
        return (await self._uow.commit(session, [], replaces=existing)).as_opened()

    async def join(self, session: Session, user_id: int, name: str, team: int | None) -> Outcome:
        teams = session.rules.teams
        if teams and team is None:
            return Outcome.refuse(Message("Pick a team: press one of the team buttons."))
        if team is not None and not 1 <= team <= max(teams, 1):
            return Outcome.refuse(Message("That team does not exist."))
        seat = session.seat(user_id)
        if seat is not None and seat.team == team:
            return Outcome.refuse(Message("You're already in this game."))
        if seat is None and len(session.seats) >= session.max_players:
            return Outcome.refuse(_full(session))
        if seat is None:
            session.seats.append(Seat(user_id, name, team=team))
        else:
            seat.team = team
        return await self._uow.commit(session, [])

    async def leave(self, session: Session, user_id: int) -> Outcome:
        seat = session.seat(user_id)
        if seat is None or (session.game and not _is_active(session, seat)):
            return Outcome.refuse(Message("You're not in this game."))
        if session.stage == "lobby":
            return await self._leave_lobby(session, user_id)
        return await self.apply(session, lambda game: game.leave(seat.player_id))

    async def _leave_lobby(self, session: Session, user_id: int) -> Outcome:
        """The last human out closes the lobby; a leaving host hands over to the next human."""
        if session.seat(user_id) is None:
            return Outcome.refuse(Message("You're not in this lobby."))
        session.seats = [s for s in session.seats if s.user_id != user_id]
        humans = [s.user_id for s in session.seats if s.computer is None]
        if not humans:
            return await self.close(session, "empty")
        if user_id == session.host_id:
            session.host_id = humans[0]
            session.host_skill = await self._skills(session.guild_id, humans[0])
        return await self._uow.commit(session, [])

    async def start(self, session: Session, user_id: int) -> Outcome:
        if user_id != session.host_id:
            return Outcome.refuse(
                Message("Only the host, {name}, can start.", name=session.snapshot().name_of(session.host_id))
            )
        teams = session.engine_teams()
        if len(session.seats) < session.rules.min_players:
            return Outcome.refuse(
                Message("You need at least {count} players to start.", count=session.rules.min_players)
            )
        if teams is not None and len(set(teams)) < session.rules.teams:
            return Outcome.refuse(
                Message("Every one of the {teams} teams needs a player.", teams=session.rules.teams)
            )
        dice = self._dice()
        dice_start = dice.state()
        try:
            game = Game.new(session.rules, [s.player_id for s in session.seats], dice, teams=teams)
        except IllegalAction as refused:
            return Outcome.refuse(refused.message)
        session.game, session.stage, session.started_at = game, "playing", self._clock.now()
        session.dice_start = dice_start
        await self._estimate(session)
        first = session.current_seat
        turn_for = first.user_id if first is not None and first.computer is None else None
        return await self._uow.commit(session, list(game.events), turn_for=turn_for)

    async def close(self, session: Session, reason: str) -> Outcome:
        session.stage, session.end_reason = "closed", reason
        return await self._uow.commit(session, [])

    async def add_computer(self, session: Session, user_id: int, choice: str) -> Outcome:
        """A computer of a named level, at a chosen skill ("skill:72") or at the host's ("your")."""
        if user_id != session.host_id:
            return Outcome.refuse(Message("Only the host can add computer players."))
        level = chosen_level(choice, session.host_skill)
        if level is None:
            return Outcome.refuse(
                Message(
                    "Computer levels are {levels}, or a skill from {lowest} to {highest}.",
                    levels=Listing(LEVELS, "and"),
                    lowest=LOWEST_SKILL,
                    highest=HIGHEST_SKILL,
                )
            )
        if len(session.seats) >= session.max_players:
            return Outcome.refuse(_full(session))
        taken = {-seat.user_id for seat in session.seats if seat.computer}
        number = next(n for n in range(1, len(taken) + 2) if n not in taken)  # a removed one's number is free
        skill = skill_of_level(level)
        name = (  # drawn translated
            Message("Computer {number} ({level})", number=number, level=level)
            if skill is None
            else Message("Computer {number} (skill {skill})", number=number, skill=skill)
        )
        session.seats.append(Seat(-number, str(name), computer=level))
        return await self._uow.commit(session, [])

    async def _remove_computer(self, session: Session, user_id: int, number: int | None) -> Outcome:
        if user_id != session.host_id:
            return Outcome.refuse(Message("Only the host can remove computer players."))
        seat = session.seat(-number) if number is not None and number > 0 else None
        if seat is None or seat.computer is None:
            return Outcome.refuse(Message("That computer is not in this lobby."))
        session.seats.remove(seat)
        return await self._uow.commit(session, [])

    async def _rematch(self, session: Session | None, press: Press) -> Outcome:
        game_id, user_id, name = press.game_id, press.user_id, press.name
        if session is not None and session.stage == "lobby" and session.rematch_of == game_id:
            return await self.join(session, user_id, name, None)
        if session is None or session.game_id != game_id or session.stage != "over":
            return Outcome.refuse(
                Message("This rematch is no longer available: start a game with `/farkle new`.")
            )
        old = session.seat(user_id)
        if old is None:
            return Outcome.refuse(Message("Only the players of this game can ask for a rematch."))
        computers = [
            Seat(s.user_id, s.name, team=s.team, computer=s.computer) for s in session.seats if s.computer
        ]
        rematch = Session(
            game_id=new_game_id(),
            guild_id=session.guild_id,
            channel_id=press.channel_id,
            host_id=user_id,
            rules=session.rules,
            table=session.table,
            seats=[Seat(user_id, name, team=old.team), *computers],
            rematch_of=game_id,
            revision=session.revision,
        )
        self._games.put(rematch)
        # On a failed commit the finished game comes back, and Rematch still works.
        players = tuple(s.user_id for s in session.seats if s.computer is None and s.user_id != user_id)
        return (await self._uow.commit(rematch, [], replaces=session)).as_opened(invited=players)

    # ------------------------------------------------------------------ buttons

    async def press(self, session: Session | None, press: Press, action: ButtonAction) -> Outcome:
        """A button whose custom id named `press.game_id` and the board's `press.seq`."""
        user_id, name, arg = press.user_id, press.name, press.arg
        if action is ButtonAction.REMATCH:
            return await self._rematch(session, press)
        if session is None or session.game_id != press.game_id or session.stage == "closed":
            return Outcome.refuse(Message("This game has ended."))
        if action in LOBBY_ACTIONS:
            if session.stage != "lobby":
                return Outcome.drawn_before(Message("This lobby has already started."), session.snapshot())
            return await self._lobby_press(session, user_id, name, action, arg)
        assert action in TURN_ACTIONS
        if session.stage != "playing" or session.game is None:
            return Outcome.drawn_before(GAME_OVER, session.snapshot())
        if press.seq != session.seq:
            return Outcome.drawn_before(OUTDATED, session.snapshot())
        current = session.current_seat
        if current is None or current.user_id != user_id:
            return Outcome.refuse(_not_yours(session, user_id, current))
        if current.computer is not None:
            return Outcome.refuse(Message("The computer is playing this turn."))
        return await self._turn_press(session, current, action, arg)

    async def _lobby_press(
        self, session: Session, user_id: int, name: str, action: ButtonAction, arg: str | None
    ) -> Outcome:
        match action:
            case ButtonAction.JOIN if user_id == session.host_id and session.seat(user_id) is not None:
                return Outcome.refuse(
                    Message("You're hosting this game: press **Start** when everyone is in.")
                )
            case ButtonAction.JOIN:
                return await self.join(session, user_id, name, None)
            case ButtonAction.TEAM:
                return await self.join(session, user_id, name, _int(arg))
            case ButtonAction.START:
                return await self.start(session, user_id)
            case ButtonAction.CPU:
                return await self.add_computer(session, user_id, arg or "normal")
            case ButtonAction.UNSEAT:
                return await self._remove_computer(session, user_id, _int(arg))
            case ButtonAction.LEAVE:
                return await self._leave_lobby(session, user_id)
            case ButtonAction.CANCEL:
                if user_id != session.host_id:
                    return Outcome.refuse(Message("Only the host can cancel the lobby."))
                return await self.close(session, "cancelled")
        return Outcome.refuse(Message("That button is not part of this lobby."))

    async def _turn_press(
        self, session: Session, seat: Seat, action: ButtonAction, arg: str | None
    ) -> Outcome:
        game = session.game
        assert game is not None
        player = seat.player_id
        keep = session.selection
        match action:
            case ButtonAction.PICK | ButtonAction.DROP:
                return await self._toggle(session, game, action, arg)
            case ButtonAction.ROLL:
                return await self.apply(
                    session, lambda g: g.roll(player, keep if g.phase == "choosing" else ())
                )
            case ButtonAction.BANK:  # nothing selected: "Bank all", the keep that banks the most
                bank = banking_keep(game, keep) if not keep and game.phase == "choosing" else keep
                return await self.apply(session, lambda g: g.bank(player, keep if bank is None else bank))
            case ButtonAction.PIGGYBACK:
                return await self.apply(session, lambda g: g.piggyback(player))
        return Outcome.refuse(NOT_OF_THIS_GAME)

    async def _toggle(self, session: Session, game: Game, action: ButtonAction, arg: str | None) -> Outcome:
        """Selecting dice is the board's state, not a move: a double tap changes (and commits) nothing."""
        position = _int(arg)
        if position is None or not 0 <= position < len(game.turn.roll):
            return Outcome.refuse(Message("That die is not on the table."))
        selected = set(session.selection)
        chosen = selected | {position} if action is ButtonAction.PICK else selected - {position}
        if chosen == selected:
            return Outcome(snapshot=session.snapshot())
        session.selection = tuple(sorted(chosen))
        return await self._uow.commit(session, [])

    # ------------------------------------------------------------------ engine

    async def _estimate(self, session: Session) -> None:
        if self._chances is not None:
            await self._chances.prepare(session)

    async def apply(self, session: Session, act: Callable[[Game], list[Event]]) -> Outcome:
        """Run one engine action; its sentence becomes the refusal, and the state is left untouched."""
        game = session.game
        assert game is not None
        before = game.current_player
        try:
            events = act(game)
        except IllegalAction as refused:
            return Outcome.refuse(refused.message)
        session.selection = ()
        if game.result is not None:
            session.stage, session.ended_at = "over", self._clock.now()
        turn_for = None
        current = session.current_seat
        if game.current_player != before or any(isinstance(e, TurnStarted) for e in events):
            session.reminded = False
            if current is not None and current.computer is None:
                turn_for = current.user_id
            await self._estimate(session)
        return await self._uow.commit(session, events, turn_for=turn_for)

    async def expire(self, session: Session) -> Outcome | None:
        """A deadline passed: a lobby closes; a turn is played out for its player: the turn total is
        banked when a bank is legal (the selection on the board if it banks, else the best keep), else
        the turn ends like a Farkle (an idle turn, counted towards removal)."""
        if session.stage == "lobby":
            return await self.close(session, "expired")
        current, game = session.current_seat, session.game
        if current is None or game is None:
            return None
        player = current.player_id
        keep = banking_keep(game, session.selection)
        if keep is None:
            return await self.apply(session, lambda g: g.timeout(player))
        # Not an idle turn: no strike. The board reads "ran out of time" (0 in a row), then the bank.
        return await self.apply(session, lambda g: [TimedOut(player, 0), *g.bank(player, keep)])


def _not_yours(session: Session, user_id: int, current: Seat | None) -> Message:
    """Why a turn button is not this member's to press: removed, gone, or someone else's turn."""
    seat, game = session.seat(user_id), session.game
    if seat is not None and game is not None and not _is_active(session, seat):
        if any(isinstance(e, Removed) and e.player == seat.player_id for e in game.events):
            return Message("You were removed from this game after three idle turns.")
        return Message("You left this game.")
    if current is None:
        return Message("It's nobody's turn.")
    return Message("It's {name}'s turn.", name=current.name)


def _full(session: Session) -> Message:
    return Message("This game is full ({count} players).", count=session.max_players)


def _is_active(session: Session, seat: Seat) -> bool:
    game = session.game
    return game is None or any(p.id == seat.player_id and p.active for p in game.players)


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None
