"""Reading a played scenario: rounds, each player's rolls, and the text between rounds.

Rolls come from the loaded draws (each attributed to a player by the policy), so they are
known exactly whatever the program prints; the program's own claims (standings, winners,
scores, labels) are read from the screen text around them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from graders.engine.readers.standings import last_standings

from . import rules
from .play import Game


@dataclass
class Turn:
    player: str
    rolls: list[list[int]] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)       # text offset after each roll's draw

    @property
    def final(self) -> list[int]:
        return self.rolls[-1]


@dataclass
class Round:
    index: int
    order: list[str]
    turns: dict[str, Turn]
    start: int
    end: int

    @property
    def finals(self) -> dict[str, list[int]]:
        return {name: turn.final for name, turn in self.turns.items()}

    def player_at(self, pos: int) -> str | None:
        return self.order[pos] if pos < len(self.order) else None

    def rolls_of(self, player: str) -> int:
        turn = self.turns.get(player)
        return len(turn.rolls) if turn else 0


class Reading:
    """What a scenario run shows."""

    def __init__(self, game: Game):
        self.game = game
        self.transcript = game.transcript
        self.text = game.transcript.text
        self.human = game.policy.human          # HUMAN, unless the program never asked
        self.names = [self.human] + [n for n in game.policy.computers if n != self.human]
        self.rounds = self._rounds()

    def _rounds(self) -> list[Round]:
        rolls: dict[tuple[int, str, int], list[int]] = {}
        ends: dict[tuple[int, str, int], int] = {}
        starts: dict[int, int] = {}
        ordered_at: dict[int, int] = {}       # round -> where the program shuffled its order
        for mark in self.transcript.draws:
            kit = mark.data.get("kit")
            if kit and "order_round" in kit:
                ordered_at[kit["order_round"]] = mark.pos
                continue
            if not kit or not mark.data.get("faces"):
                continue
            if mark.pos < ordered_at.get(kit["round"], -1) or (
                    kit["round"] + 1 in ordered_at and mark.pos > ordered_at[kit["round"] + 1]):
                continue                      # dice outside the round: a tie roll-off
            key = (kit["round"], kit["player"], kit["roll"])
            rolls.setdefault(key, []).extend(mark.data["faces"])
            ends[key] = mark.pos
            starts.setdefault(kit["round"], mark.pos)
        rounds: dict[int, Round] = {}
        for (index, player, number), faces in sorted(rolls.items(), key=lambda kv: ends[kv[0]]):
            if len(faces) < 3:
                continue                    # a tie-break roll-off die, not a roll
            round_ = rounds.setdefault(index, Round(index, [], {}, ends[(index, player,
                                                                         number)], 0))
            turn = round_.turns.setdefault(player, Turn(player))
            if player not in round_.order:
                round_.order.append(player)
            turn.rolls.append(faces[-3:])     # after animation frames, the last three count
            turn.ends.append(ends[(index, player, number)])
            round_.start = min(round_.start, ends[(index, player, number)])
            round_.end = max(round_.end, ends[(index, player, number)])
        chosen = self.game.policy.orders
        for index, round_ in rounds.items():
            if index in chosen and set(chosen[index]) >= set(round_.order):
                round_.order = [n for n in chosen[index] if n in round_.turns]
        return [rounds[i] for i in sorted(rounds)]

    # ------------------------------------------------------------------ regions of text
    def round(self, index: int) -> Round | None:
        for round_ in self.rounds:
            if round_.index == index:
                return round_
        return None

    def complete(self, index: int) -> bool:
        """Round played by four players and followed by another round or the game's end."""
        round_ = self.round(index)
        players = max(3, len(self.names))       # three-player programs are graded too
        if round_ is None or len(round_.turns) < players or "?" in round_.turns:
            return False
        return self.round(index + 1) is not None or not self.game.transcript.crashed

    def before(self, index: int) -> tuple[int, int]:
        """Offsets of the text before round ``index`` starts (after the previous round)."""
        previous = self.round(index - 1)
        start = previous.end if previous else 0
        current = self.round(index)
        return start, current.start if current else len(self.text)

    def after(self, index: int) -> tuple[int, int]:
        current = self.round(index)
        following = self.round(index + 1)
        end = following.start if following else len(self.text)
        return (current.end if current else 0), end

    def slice(self, span: tuple[int, int]) -> str:
        return self.text[span[0]:span[1]]

    def excerpt(self, span: tuple[int, int], max_lines: int = 60) -> str:
        return self.transcript.render(span[0], span[1], max_lines=max_lines)

    def standings_before(self, index: int) -> dict[str, int]:
        found, _ = last_standings(self.slice(self.before(index)), self.names)
        return found

    def standings_at_end(self) -> dict[str, int]:
        last = self.rounds[-1].index if self.rounds else -1
        found, _ = last_standings(self.slice(self.after(last)), self.names)
        return found

    # ------------------------------------------------------------------ the human
    def offers(self, index: int) -> int:
        """How often the human was asked whether to roll again in round ``index``."""
        return sum(1 for d in self.game.decisions if d.kind == "roll" and d.repeat == 0
                   and d.human_round == index and d.human_rolls >= 1)

    def ignored_yes(self, index: int) -> list[int]:
        """Roll counts at which the human said yes to rolling again and did not roll."""
        round_ = self.round(index)
        rolled = round_.rolls_of(self.human) if round_ else 0
        asked = {d.human_rolls for d in self.game.decisions if d.kind == "roll"
                 and d.intent == "yes" and d.human_round == index and d.human_rolls >= 1}
        return sorted(n for n in asked if n >= rolled)

    def draws_between(self, span: tuple[int, int]) -> int:
        """Random draws in a span, not counting the shuffles that order the next round."""
        return sum(1 for m in self.transcript.draws if span[0] < m.pos < span[1]
                   and "order_round" not in (m.data.get("kit") or {}))

    def ended_by_the_rules(self) -> bool:
        """The program finished on its own and its last standings show someone out of chips."""
        if self.game.stopped_early or self.transcript.outcome.get("status") not in (
                "finished", "exit"):
            return False
        final = self.standings_at_end()
        return bool(final) and min(final.values()) <= 0

    # ------------------------------------------------------------------ outcomes
    def receiver(self, index: int) -> tuple[str | None, dict, dict]:
        """Who gained chips over round ``index`` (by the program's own standings)."""
        before, after = self.standings_before(index), self.standings_before(index + 1)
        if index + 1 > self.rounds[-1].index if self.rounds else True:
            after = self.standings_at_end() or after
        # standings that leave someone out still tell who gained among the others
        common = [n for n in self.names if n in before and n in after]
        if len(common) < max(2, len(self.names) - 1):
            return None, {}, {}
        before = {n: before[n] for n in common}
        after = {n: after[n] for n in common}
        gained = [n for n in common if after[n] > before[n]]
        return (gained[0] if len(gained) == 1 else None), before, after

    def shown(self, turn: Turn, number: int) -> bool:
        """Were this roll's dice printed (as digits in order, or as big dice)?"""
        from graders.engine.readers.dice import find_dice
        end = turn.ends[number]
        following = self.text[end:end + 2500]
        faces = turn.rolls[number]
        digits = r"\D{1,6}".join(str(f) for f in faces)
        if re.search(r"(?<!\d)" + digits + r"(?!\d)", following):
            return True
        return find_dice(following, faces) is not None

    def announced_winner(self, index: int) -> str | None:
        """A player named on a line about winning the round, after its last roll."""
        text = self.slice(self.after(index))
        for line in text.split("\n"):
            if re.search(r"\bwin|\bwinner|\bwon\b|highest|best", line, re.I) and \
                    not re.search(r"game", line, re.I):
                named = [n for n in self.names
                         if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", line)]
                if len(named) == 1:
                    return named[0]
        return None

    def expected(self, index: int):
        round_ = self.round(index)
        finals = round_.finals
        high, low = rules.highest_and_lowest(finals)
        return high, low, rules.transfer_amount(finals)
