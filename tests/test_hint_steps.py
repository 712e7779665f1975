"""The page's main-thread fallback for the hint, ``hints.hint_steps`` (run in slices when
the bots' worker is away), gives exactly the hint of ``hints.hint`` (what the worker and
the terminal give): same action, tip, sentence, parameters and contrast, over positions of
random games in every rules variant, face-down views before a bid included."""

from __future__ import annotations

import pytest

from spades_core import GameState, Phase, Rules, Seat
from spades_core.errors import SpadesError
from spades_core.hints import Hint, hint, hint_steps
from spades_core.views import View, view_for
from tests.helpers import drain

from .test_hint_truth import positions


def run(view: View) -> tuple[Hint, int]:
    """The hint of the steps path and how many pauses it took."""
    return drain(hint_steps(view))


@pytest.mark.parametrize("seed", [11, 12])
def test_the_sliced_hint_is_the_hint(seed: int) -> None:
    views = positions(24, seed)
    paused = 0
    for view in views:
        found, pauses = run(view)
        assert found == hint(view), (view.phase, view.seat, view.trick, view.hand)
        if pauses:
            paused += 1
    kinds = {(view.phase, view.hand is None) for view in views}
    assert (Phase.PLAYING, False) in kinds and (Phase.BIDDING, False) in kinds
    # the fallback only helps if it pauses: every search with a choice yields
    assert paused >= len(views) // 2


def test_a_face_down_view_gives_the_same_blind_nil_hint() -> None:
    views = [view for seed in range(20, 26) for view in positions(12, seed) if view.hand is None]
    assert views, "no face-down view drawn"
    for view in views[:6]:
        assert run(view)[0] == hint(view)


def test_both_refuse_a_seat_that_is_not_to_act() -> None:
    state = GameState.new(Rules(), deal=7)
    seat = next(s for s in Seat if s != state.to_act)
    view = view_for(state, seat)
    with pytest.raises(SpadesError):
        hint(view)
    with pytest.raises(SpadesError):
        run(view)
