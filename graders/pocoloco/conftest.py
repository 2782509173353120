"""Fixtures of the PocoLoco grader: every scenario played once per submission."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from .play import play
from .reading import Reading
from .scenarios import ALL

WORKERS = 2                      # scenario runs in parallel (each is its own process)


@pytest.fixture(scope="session")
def games(submission, budget, notes, attach) -> dict[str, Reading | None]:
    """Every scenario, played once per submission; full transcripts go to the report."""
    def run(scenario):
        if budget.left < 0.5:
            return scenario.name, None
        return scenario.name, play(submission.files, scenario, budget.left)

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        played = dict(pool.map(run, ALL))
    readings, endings = {}, {}
    for scenario in ALL:
        game = played[scenario.name]
        if game is None:
            notes(f"Game '{scenario.name}' was not played: the time budget was used up.", True)
            readings[scenario.name] = None
            continue
        readings[scenario.name] = Reading(game)
        ended = game.transcript
        attach(f"transcripts/{scenario.name}.txt",
               f"Game '{scenario.name}': {scenario.purpose}. {scenario.chips} chips each.\n"
               f"«...» is what the grader typed; [dice: ...] are the dice it loaded.\n\n"
               + ended.render(max_lines=100_000) + f"\n\n{ended.ended_how}\n")
        if not game.stopped_early and ended.outcome.get("status") not in ("finished", "exit"):
            problem = ended.crashed or ended.outcome.get("status") == "limit"
            endings.setdefault((ended.ended_how, problem), []).append(scenario)
    for (how, problem), scenarios in endings.items():
        names = ", ".join(f"'{s.name}' ({s.purpose})" for s in scenarios)
        notes(f"{how.rstrip('.')}. This happened in {len(scenarios)} of the grader's "
              f"{len(ALL)} games: {names}.", problem)
    return readings
