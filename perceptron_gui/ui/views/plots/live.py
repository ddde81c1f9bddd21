"""The live plots' container: builds the three plots lazily and refreshes them in turn.

The plots are built when a run first needs them or in idle time, so a window
opening on an empty workspace does not wait for them.
"""

from __future__ import annotations

from ...deferred import YieldingTimer
from ..base import REFRESH_MS, View
from .bound import BoundPlot
from .items import Titles, note_font
from .mistakes import MistakesPlot
from .proof import ProofPlot
from .seek import ClickToSeek

__all__ = ["LivePlots", "NO_RUN_MESSAGE", "PREBUILD_MS", "PREBUILD_STEP_MS", "REFRESH_MS"]

#: Shown instead of the plots when no run exists yet (and the data have no problem).
NO_RUN_MESSAGE = "The plots fill in as the perceptron runs: add points of both classes."
#: Delay after the first show before the (hidden) plots are built in idle time (ms).
PREBUILD_MS = 300
#: Delay between two plots of that build (ms).  A real timer: a zero one posts an
#: event that Qt delivers in the same pass as the previous, so the builds ran
#: back to back with no timer or input between them (a 60-150 ms stall).
PREBUILD_STEP_MS = 1

_PARTS = (BoundPlot, ProofPlot, MistakesPlot)
#: Parts made in two steps (``staged=True``, then ``build_rest()``): the proof's two
#: plots, ~25 ms together, are the longest step of the build in idle time.
_STAGED = (ProofPlot,)
#: Part name -> its index in :data:`_PARTS`.
_INDEX = {part.name: i for i, part in enumerate(_PARTS)}


class LivePlots(View):
    """The three live plots of a run (:meth:`part`), redrawn one per event-loop pass, at most
    every :data:`REFRESH_MS`; a plot whose inputs did not change is skipped."""

    name = "plots"
    title = "Live plots"
    refresh_ms = REFRESH_MS
    object_name = "livePlots"

    def __init__(self, workspace, parent=None):
        super().__init__(workspace, parent)
        self._keys: dict[str, object] = {}
        self._titles = Titles()
        self._parts: list = []
        self._built = False
        self._prebuild_started = False
        #: The clicks that seek (:mod:`.seek`), one per plot counting steps or updates.
        self.seekers: list[ClickToSeek] = []
        self._column = self._paged("livePlotsMessage")
        self._stage = 0  # the plot the next staged refresh draws
        self._stage_timer = YieldingTimer(self, self._refresh_staged)
        self._prebuild_timer = YieldingTimer(self, self._prebuild_step,
                                             name="livePlotsPrebuildTimer")
        self.restyle()

    # -- construction ---------------------------------------------------------------------
    def _build_part(self) -> None:
        """One step of the build: the next plot, or the rest of one made in two stages."""
        part = self._parts[-1] if self._parts else None
        if part is not None and not part.complete:
            part.build_rest()
        else:
            kind = _PARTS[len(self._parts)]
            part = kind(self._titles, staged=True) if kind in _STAGED else kind(self._titles)
            self._parts.append(part)
        if part.complete:
            part.set_scale(self._scale)

    def _build_pending(self) -> bool:
        return len(self._parts) < len(_PARTS) or not self._parts[-1].complete

    def _build(self) -> None:
        if self._built:
            return
        self._built = True
        while self._build_pending():
            self._build_part()
        for part in self._parts:
            self._column.addWidget(part.widget, 1)
        proof = self._parts[_INDEX["proof"]]
        proof.on_stacked = self._proof_stacked
        self._proof_stacked(proof.stacked)
        # a click on a plot counting steps or updates goes to that step (seek.py)
        bound = self._parts[_INDEX["bound"]]
        self.seekers = [ClickToSeek(plot, unit, self._run_learner, self.commandIssued.emit, self)
                        for plot, unit in ((bound.bound_plot.getPlotItem(), "step"),
                                           (proof.dot_plot, "update"),
                                           (proof.norm_plot, "update"))]

    def _run_learner(self):
        """The learner a click on a plot seeks in, or None."""
        ws = self.workspace
        return ws.learner if ws.running and ws.capabilities.steps else None

    def _proof_stacked(self, stacked: bool) -> None:
        """The proof's two plots stacked take the height of two."""
        self._column.setStretchFactor(self._parts[_INDEX["proof"]].widget, 2 if stacked else 1)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if not self._built and not self._prebuild_started:
            # build the plots soon after the window shows, one step per event-loop
            # turn (12-17 ms each), so that the first run does not wait for them
            self._prebuild_started = True
            self._prebuild_timer.start(PREBUILD_MS)

    def _prebuild_step(self) -> None:
        if self._built:
            return
        if self._build_pending():
            self._build_part()
            self._prebuild_timer.start(PREBUILD_STEP_MS)
        else:
            self._build()

    # -- public API ----------------------------------------------------------------------
    def part(self, name: str):
        """The plot named ``name`` ("bound", "proof", "mistakes"), built if not yet."""
        index = _INDEX[name]
        self._build()
        return self._parts[index]

    @property
    def proof_text(self) -> str:
        """Why the proof is not drawn ("" when it is, or when no plot is shown yet)."""
        return self._parts[1].message if self._built else ""

    def restyle(self) -> None:
        """Use the line widths and font sizes of :attr:`scale` and the current palette."""
        scale = self._scale
        self._message.setFont(note_font(scale))
        for part in self._parts:
            if part.complete:  # a part still being built takes the scale when done
                part.set_scale(scale)
        self._keys.clear()  # titles carry sizes: redraw them
        self.refresh()

    def refresh(self) -> None:
        self.stop_pending_refresh()
        self._stage_timer.stop()
        self._stage = 0
        if self._page_for(self.workspace, self.workspace.spec.no_steps_text, NO_RUN_MESSAGE):
            for stage in range(len(_PARTS)):
                self._refresh_part(stage)

    # -- the three plots -------------------------------------------------------------------
    def workspace_changed(self) -> None:
        """The subscriptions' coalesced refresh: one plot per pass (:meth:`_refresh_staged`);
        hidden, all of them when next shown (:meth:`refresh_shown`: a hidden tab's three
        plots were 14 % of an animation frame)."""
        self._refresh_staged() if self.isVisible() else self.refresh_shown()

    def _refresh_staged(self) -> None:
        """Refresh the next plot (or build one), the following one the next pass."""
        ws = self.workspace
        if not ws.running:
            self.refresh()
            return
        if not self._built and len(self._parts) < len(_PARTS):
            self._build_part()
            self._stage_timer.start()
            return
        self._refresh_part(self._stage)
        self._stage = (self._stage + 1) % len(_PARTS)
        if self._stage:
            self._stage_timer.start()

    def _refresh_part(self, index: int) -> None:
        """Redraw the plot ``index`` of :data:`_PARTS` unless its inputs are those drawn."""
        self._build()
        self._stack.setCurrentIndex(0)
        ws = self.workspace
        learner = ws.learner
        t, k = learner.step_count, learner.n_updates_
        if index == 0:
            r = ws.readouts()
            key, args = (t, k, r.bound, r.separable), (t, k, r)
        elif index == 1:
            key, args = (k, ws.novikoff), (k,)
        else:
            key, args = (t,), (t,)
        key = (learner, *key, self._scale)
        name = _PARTS[index].name
        if self._keys.get(name) != key:
            self._keys[name] = key
            self._parts[index].refresh(ws, *args)

    def set_message(self, text: str) -> None:
        super().set_message(text)
        self._keys.clear()
