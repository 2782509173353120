"""Loaded dice for PocoLoco: who is rolling, and what they should get.

Every die draw arrives with the student's call stack and the short strings in its local
variables; a player's name there says whose roll it is. The policy keeps per-player turns
(a turn is a run of draws by one player; the k-th turn of a player is round k) and hands out the
faces a scenario planned for (round, position in that round's order, roll number). It also
chooses the order of play when the program shuffles its players, so a scenario can put the
human first, second or last.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from graders.engine.draws import DrawPolicy

CURRENT_HINTS = ("player", "current", "who", "turn", "roller", "name", "p", "self.name",
                 "person", "comp", "cpu", "bot")
HUMAN_HINTS = ("human", "user", "you", "your", "me", "my", "player_name", "username")
NOT_NAMES = {"round", "player", "players", "chips", "chip", "name", "total", "score", "you",
             "the", "and", "order", "turn", "game", "winner", "loser", "points", "roll",
             "poco", "loco", "dice", "die", "rolls", "ties", "tie", "best", "lowest",
             "highest", "enter", "press", "start", "starting", "each", "everyone", "rules",
             "round", "chips:", "three", "kind", "pair", "welcome", "note", "rule", "step"}


OTHER_ROLE = re.compile(r"low|high|best|worst|win|los|lead|target|beat|prev|last|next|first|"
                        r"top|bottom|champ|tie|starter|dealer")


def _base(var: str) -> str:
    """'self.player.name' -> 'player'; "p['name']" -> 'p'."""
    return re.sub(r"^self\.|\.name$|\['name'\]$", "", var.lower())


@dataclass
class Plan:
    """What a scenario wants: the order of play and the dice, by round/position/roll."""

    human_position: list[int] = field(default_factory=list)   # per round; default 0
    dice: dict = field(default_factory=dict)   # (round, pos) -> list of rolls (3 faces each)
    filler: list[list[int]] = field(default_factory=list)       # per pos when not planned
    tie_pick: str = "last"                       # random tie-breaks pick the first or last

    def roll(self, round_index: int, pos: int, roll_index: int) -> list[int] | None:
        rolls = self.dice.get((round_index, pos))
        if not rolls:
            if self.filler:
                return self.filler[pos % len(self.filler)]
            return None
        return rolls[min(roll_index, len(rolls) - 1)]   # extra rolls repeat the last one

    def position_of_human(self, round_index: int) -> int:
        if round_index < len(self.human_position):
            return self.human_position[round_index]
        return self.human_position[-1] if self.human_position else 0


@dataclass
class PlayerState:
    turn: int = 0              # rounds completed by this player
    rolls: int = 0             # complete rolls in the current turn
    dice: int = 0              # dice so far in the current roll


class PocoPolicy(DrawPolicy):
    """Attributes draws to players and loads them by plan."""

    def __init__(self, human: str, plan: Plan, chips: int, seed: int = 7):
        super().__init__(seed)
        self.human, self.plan, self.chips = human, plan, chips
        self.computers: list[str] = []
        self.states: dict[str, PlayerState] = {}
        self.orders: dict[int, list[str]] = {}       # round -> order we chose
        self.arrivals: dict[int, list[str]] = {}     # round -> players in order of first draw
        self.last_drawer: str | None = None
        self.order_shuffles = 0
        self._scanned = 0
        self.first_seen: dict[tuple, str] = {}
        self.index_orders: dict[int, list[int]] = {}   # round -> shuffled player numbers
        self.index_player: dict[int, str] = {}         # player number -> name (learned)
        self.varying: set[tuple] = set()
        self.stop_at_round: int | None = None        # end the run when this round starts
        self.named = False                           # the program asked the human's name
        self._event: dict = {}

    # ------------------------------------------------------------------ who
    @property
    def names(self) -> list[str]:
        return [self.human] + self.computers

    def learn_names(self, items) -> None:
        for item in items:
            name = item.get("name") if isinstance(item, dict) else item
            if isinstance(name, str) and name.strip() and name != self.human \
                    and name not in self.computers and name.lower() not in NOT_NAMES:
                self.computers.append(name)

    def learn_from_screen(self) -> None:
        """Computer names from standings printed so far: a capitalised word and the chips."""
        if self.log is None or len(self.computers) >= 3:
            return
        fresh = self.log[self._scanned:]
        self._scanned = max(self._scanned, len(self.log) - 1)   # the last 'out' may still grow
        text = "".join(e.text for e in fresh if e.kind == "out")[-20000:]
        text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)
        pattern = r"([A-Z][\w'-]{1,20})\W{0,6}(has\s+|with\s+)?(\d+)\b"
        for match in re.finditer(pattern, text):
            name, owns, number = match.group(1), match.group(2), int(match.group(3))
            # a word like "Chip" is a name when it "has 20" (chips), not in "Chips: 20"
            ordinary = name.lower() in NOT_NAMES and not owns
            if number == self.chips and not ordinary and name != self.human \
                    and name not in self.computers:
                self.computers.append(name)

    def who(self, event: dict) -> str | None:
        """The player a draw belongs to, from the names in the student's locals.

        The innermost frame naming a player decides. When a frame names several (say
        ``name = "Quillon"`` and ``player = "Mo"``), a variable already seen holding
        different players is the current one; failing that, the player who is not the
        human (the human's name sits in some variable all game long).
        """
        known = set(self.names)
        side = self._side_from_functions(event.get("stack", []))
        for frame in event.get("stack", []):
            found = [(var, value) for var, value in frame.get("strings", []) if value in known]
            # 'lowest_name', 'best_player', 'winner'... name someone, but not the roller
            rolling = [(var, v) for var, v in found if not OTHER_ROLE.search(_base(var))]
            found = rolling or found
            for var, value in found:
                key = (frame.get("fn"), var)
                first = self.first_seen.setdefault(key, value)
                if first != value:
                    self.varying.add(key)
            distinct = {value for _, value in found}
            if len(distinct) == 1:
                only = distinct.pop()
                if only == self.human and side == "computer":
                    return None          # the human's name sits in main; a computer is rolling
                if only != self.human and side == "human":
                    return self.human
                return only
            if len(distinct) > 1:
                if side == "human" and self.human in distinct:
                    return self.human
                moving = [v for var, v in found if (frame.get("fn"), var) in self.varying]
                if moving:
                    return moving[0]
                others = [(var, v) for var, v in found if v != self.human]
                if side == "computer" or len({v for _, v in others}) == 1:
                    return self._most_current(others) if others else None
                return self._most_current(found)
        return None

    @staticmethod
    def _side_from_functions(stack: list[dict]) -> str | None:
        """'human' or 'computer' when a function on the stack says whose turn it is."""
        for frame in stack:
            fn = frame.get("fn", "").lower()
            if re.search(r"comp|cpu|bot|(^|_)ai(_|$)|npc|robot|opponent|auto", fn):
                return "computer"
            if re.search(r"human|user|(^|_)you(r)?(_|$)|my_?turn", fn):
                return "human"
        return None

    @staticmethod
    def _most_current(found: list[tuple[str, str]]) -> str:
        """Among several named players, the one in the variable most likely to hold the
        player whose turn it is ('player', 'current', ...) rather than the human's name."""
        def score(pair):
            base = _base(pair[0])
            if base in HUMAN_HINTS or re.search(r"human|user|your|(^|_)my", base):
                return 0
            if re.search(r"current|player$|^player|who|turn|roller|active", base):
                return 3
            if base in ("p", "pl", "plr", "person", "comp", "cpu", "bot"):
                return 2
            return 1
        return max(found, key=score)[1]

    def _text_since_last_draw(self) -> str:
        if self.log is None:
            return ""
        text = []
        for event in reversed(self.log):
            if event.kind == "draw":
                break
            if event.kind == "out":
                text.append(event.text)
        return "".join(reversed(text))[-3000:]

    def _only_flashes_since_last_draw(self) -> bool:
        """Nothing but carriage-return lines since the last draw: the dice just drawn were
        flashed on screen and overwritten (a rolling animation), not a roll of their own."""
        raw = []
        for event in reversed(self.log or []):
            if event.kind == "draw":
                break
            if event.kind in ("input", "answer"):
                return False
            if event.kind == "out":
                raw.append(event.text)
        text = "".join(raw)
        return "\n" not in text and "\r" in text

    def _round_heading_since_last_draw(self) -> bool:
        """A "Round 2" heading between two draws starts a new round (even for a player who
        went last and now goes first, when the program does not shuffle with random)."""
        return bool(re.search(r"\bround\s*#?\s*:?\s*\d+", self._text_since_last_draw(), re.I))

    def _named_since_last_draw(self) -> str | None:
        """Fallback when the stack names nobody: the last player named since the last draw
        (a "Mo's turn" heading). Less reliable than the stack, so only used without it."""
        recent = self._text_since_last_draw()
        best, where = None, -1
        for name in self.names:
            spot = recent.rfind(name)
            if spot > where:
                best, where = name, spot
        return best

    def _after_roll_answer(self) -> bool:
        """True when our last action was answering a prompt (the human's re-roll)."""
        if self.log is None:
            return False
        for event in reversed(self.log):
            if event.kind == "answer":
                return True
            if event.kind == "draw":
                return False
        return False

    # ------------------------------------------------------------------ order of play
    def _is_player_population(self, items) -> bool:
        names = [i.get("name") if isinstance(i, dict) else i for i in items]
        if not 3 <= len(names) <= 4 or not all(isinstance(n, str) for n in names):
            return False
        if self.human not in names and not self.named and not self.states:
            # The program never asked the human's name: its own name for the human is the
            # one that says so ("You", "Player"), else the first (humans come first).
            own = [n for n in names if re.fullmatch(r"(?i)you|player\s*1?|human|me|user", n)]
            self.human = own[0] if own else names[0]
        return self.human in names

    def _order_of_indexes(self, items: list) -> list[int] | None:
        """A shuffle of player numbers (``[0, 1, 2, 3]``): put the human where the plan wants.

        Which number is the human is learned from earlier rounds' draws; before that, the
        human is taken to be number 0 (programs list the human first almost always)."""
        n = len(items)
        round_index = self._new_round(self._event)
        human = next((i for i, p in self.index_player.items() if p == self.human), 0)
        others = [i for i in range(n) if i != human]
        pos = min(self.plan.position_of_human(round_index), len(others))
        perm = others[:pos] + [human] + others[pos:]
        self.index_orders[round_index] = perm
        return perm

    def order(self, event: dict):
        self._event = event
        items = event.get("req", {}).get("items", [])
        if items and items == list(range(len(items))) and 3 <= len(items) <= 4 \
                and event.get("fn") in ("shuffle", "sample"):
            return self._order_of_indexes(items)
        if not self._is_player_population(items):
            return None
        self.learn_names(items)
        names = [i.get("name") if isinstance(i, dict) else i for i in items]
        round_index = self._new_round(event)
        computers = [i for i, n in enumerate(names) if n != self.human]
        human = names.index(self.human)
        pos = min(self.plan.position_of_human(round_index), len(computers))
        perm = computers[:pos] + [human] + computers[pos:]
        self.orders[round_index] = [names[i] for i in perm]
        return perm

    def _new_round(self, event: dict | None = None) -> int:
        """A shuffle of the players starts a round: close the last turn and line every player
        up on that round (dice drawn since the last round, e.g. a tie roll-off, were extra)."""
        if self.last_drawer is not None:
            self._close_turn(self.last_drawer)
            self.last_drawer = None
        self.order_shuffles += 1
        players = max(3, len(self.names))
        round_index = 0               # the first round not every player has played
        while len(self.arrivals.get(round_index, [])) >= players:
            round_index += 1
        self.arrivals[round_index] = []
        for state in self.states.values():
            state.turn, state.rolls, state.dice = round_index, 0, 0
        if event is not None:
            event["kit"] = {"order_round": round_index}
        return round_index

    def choose_index(self, event: dict):
        items = event.get("req", {}).get("items", [])
        names = [i.get("name") if isinstance(i, dict) else i for i in items]
        if self._is_player_population(items):
            self.learn_names(items)
            round_index = self._new_round(event)
            computers = [n for n in names if n != self.human]
            pos = self.plan.position_of_human(round_index)
            first = self.human if pos == 0 else computers[0]
            return names.index(first)
        if items and all(isinstance(n, str) for n in names) and len(items) <= 4:
            return len(items) - 1 if self.plan.tie_pick == "last" else 0
        return None

    # ------------------------------------------------------------------ dice
    def next_face(self, event: dict) -> int | None:
        if not self.computers:
            self.learn_from_screen()
        player = self.who(event)
        if player is None and self._after_roll_answer():
            player = self.human
        if player is None:
            player = self._named_since_last_draw() or self.last_drawer or "?"
        state = self.states.setdefault(player, PlayerState())
        if self.last_drawer is not None and (player != self.last_drawer or
                                             self._round_heading_since_last_draw()):
            self._close_turn(self.last_drawer)
        elif player == self.last_drawer and state.dice == 0 and state.rolls and \
                self._only_flashes_since_last_draw():
            state.rolls -= 1     # the last triple was an animation frame, not a roll
        self.last_drawer = player
        round_index = state.turn
        if self.stop_at_round is not None and round_index >= self.stop_at_round:
            self.enough = True
        arrivals = self.arrivals.setdefault(round_index, [])
        if player not in arrivals:
            arrivals.append(player)
        order = self.orders.get(round_index)
        pos = order.index(player) if order and player in order else arrivals.index(player)
        numbers = self.index_orders.get(round_index)
        if numbers and not order and pos < len(numbers) and player != "?":
            self.index_player.setdefault(numbers[pos], player)
        planned = self.plan.roll(round_index, pos, state.rolls)
        die = state.dice
        event["kit"] = {"player": player, "round": round_index, "pos": pos,
                        "roll": state.rolls, "die": die}
        state.dice += 1
        if state.dice == 3:
            state.rolls += 1
            state.dice = 0
        if planned is None:
            return None
        return planned[die % 3]

    def _close_turn(self, player: str) -> None:
        state = self.states[player]
        state.dice = 0                       # a partial roll (a roll-off die) is dropped
        if state.rolls:
            state.turn += 1
            state.rolls = 0

    def wants_random_as_die(self, event: dict) -> bool:
        """int(random.random() * 6) + 1 dice: random() counts as a die until the program
        shows it rolls dice another way (then random() is a decision, e.g. a strategy)."""
        return not self.die_style_seen
