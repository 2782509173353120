"""Fixtures of the PocoLoco grader: every scenario played once per submission."""
from __future__ import annotations

import json

import pytest

from graders.engine.run.draws import die_offset
from graders.engine.grading.replay import attach_game

from .play import play
from .reading import Reading
from .scenarios import ALL, LONG, PUBLIC, name_clash


@pytest.fixture(scope="session")
def games(submission, budget, notes, attach, self_check, for_ta) -> dict[str, Reading | None]:
    """Every scenario (the public ones in the self-check), played once per submission; full
    transcripts go to the report."""
    def run(scenario):
        return play(submission.files, scenario, budget.left)

    scenarios = [s for s in ALL if s in PUBLIC] if self_check else list(ALL)
    # the engine's one way of running side by side: a scenario reached with less than half a
    # CPU second of the budget left is not played (None)
    played = dict(zip((s.name for s in scenarios), budget.map(run, scenarios)))
    long_game = played.get(LONG.name)
    if long_game is not None and long_game.policy.computers:
        clash = name_clash(long_game.policy.computers[0])
        scenarios.append(clash)
        played[clash.name] = budget.map(run, [clash], workers=1)[0]
    readings, endings = {}, {}
    for scenario in scenarios:
        game = played[scenario.name]
        if game is None:
            notes(f"Game '{scenario.name}' was not played: the time budget was used up.", True)
            readings[scenario.name] = None
            continue
        readings[scenario.name] = Reading(game)
        ended = game.transcript
        # the transcript, and the plan that replays the game (gradekit replay)
        attach_game(attach, scenario.name, ended,
                    f"Game '{scenario.name}': {scenario.purpose}. {game.policy.chips} chips "
                    f"each.\n«...» is what the grader typed; [dice: ...] are the dice it "
                    f"loaded.\n\n", public=scenario in PUBLIC or (
                        scenario not in ALL and LONG in PUBLIC))   # the clash: of 'long'
        if not game.stopped_early and ended.outcome.get("status") not in ("finished", "exit"):
            problem = ended.crashed or ended.outcome.get("status") == "limit"
            # one problem said once: games stopped by the same limit are one note, though the
            # stuck verdict is worded two ways (the full limit, then the shorter one once the
            # program was found looping); the note quotes the full limit's wording
            key = ended.outcome.get("limit") or ended.ended_how
            endings.setdefault((key, problem), []).append((scenario, ended))
    for (_, problem), hit in endings.items():
        how = min((e for _, e in hit),
                  key=lambda e: bool(e.outcome.get("shorter_limit"))).ended_how
        names = ", ".join(f"'{s.name}' ({s.purpose})" for s, _ in hit)
        notes(f"{how.rstrip('.')}. This happened in {len(hit)} of the grader's "
              f"{len(scenarios)} games: {names}.", problem)
    # rounds whose reading disagrees with the transcript are judged by nobody but a TA
    for name, reading in readings.items():
        for round_ in (reading.rounds if reading is not None else []):
            if round_.contradiction and reading.unsure(round_.index):
                for_ta(f"'{name}' game, Round {round_.index + 1} not judged: the grader's "
                       f"reading of whose dice were whose disagrees with the transcript "
                       f"({round_.contradiction}).")
    attach("transcripts/readings.json", json.dumps(
        {name: [round_record(reading, r) for r in reading.rounds]
         for name, reading in readings.items() if reading is not None}, indent=1))
    ways: dict[int, str] = {}
    for reading in readings.values():
        for offset, way in (dice_ways(reading) if reading is not None else {}).items():
            ways.setdefault(offset, way)
    ways = sorted(ways.values())
    if len(ways) > 1:
        # Interpretation: one program throws its dice one way (randint(1, 6) and
        # choices(range(1, 7)) are one way: both give 1 for a one); a second way in the
        # players' turns is most likely an animation printed on lines of its own, which the
        # grader cannot tell from rolls (docs/known-limits.md). Not a verdict: a TA looks.
        notes(f"Your program draws dice in more than one way in the players' turns "
              f"({' and '.join(ways)}). If one of them is an animation, the grader may have "
              "counted its frames as rolls: a TA checks the items about the dice.", True)
    return readings


def round_record(reading: Reading, round_) -> dict:
    """A round as the grader read it, for the report's data: whose rolls, in which order,
    and whether the reading agrees with everything the transcript shows of it."""
    return {"round": round_.index + 1, "consistent": round_.contradiction is None,
            "judged": reading.complete(round_.index), "order": round_.order,
            "rolls": {player: [" ".join(map(str, roll)) for roll in turn.rolls]
                      for player, turn in round_.turns.items()},
            "reread": round_.reread, "contradiction": round_.contradiction}


def dice_ways(reading: Reading) -> dict[int, str]:
    """How a game's dice were drawn in the players' turns, by what the program is given for
    a one: {1: 'random.randint(1, 6)', 0: 'random.choice(six faces)'}."""
    ways = {}
    for mark in reading.game.transcript.draws:
        kit, request = mark.data.get("kit") or {}, mark.data.get("req") or {}
        offset = die_offset(str(mark.data.get("fn")), request)
        if mark.data.get("faces") and kit.get("turn") is not None and offset is not None:
            bounds = [request[key] for key in ("a", "b") if key in request]
            ways.setdefault(offset, f"random.{mark.data.get('fn')}("
                                    f"{', '.join(map(str, bounds)) or 'six faces'})")
    return ways
