"""The readout panel: every number of the run, from ``Workspace.readouts()``.

It draws and never computes; a row shows when :attr:`Capabilities.readouts` lists
its section.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from ...core.class_edits import class_texts
from ...core.readouts import shown_error
from ...core.text import fmt, fmt_count, fmt_percent, fmt_vec
from .. import style
from ..wording import problem_text
from . import follow_run
from .essentials import bound_palette

__all__ = ["ReadoutPanel", "FIELDS"]

#: The readout sections of the learners' capabilities (``_ALL``: every learner's).
_RUN, _BOUND, _UPDATE, _CLASS_MODEL = "run", "bound", "update", "class_model"
_ALL = "all"

#: The fields of the panel: key, label, section, the readout section that shows it, tooltip.
#: ``values()`` is keyed by these keys; each value label is named ``readout_<key>``.
FIELDS: tuple[tuple[str, str, str, str, str], ...] = (
    ("classes", "Classes", "data", _ALL,
     "The two classes, with the labels y = −1 and y = +1 the formulas use,\n"
     "how many samples each has, and what the coordinates x = (x₁, x₂) are\n"
     "(names from the data's file)."),
    ("epoch", "Epoch", "run", _RUN,
     "The pass over the data in progress (1 = the first).\n"
     "One epoch examines every sample once."),
    ("position", "Sample", "run", _RUN,
     "Position of the last examined sample in this epoch: position / n."),
    ("k", "Updates k", "run", _RUN,
     "Number of updates so far. Each mistake, y·(w·x + b) ≤ 0, updates\n"
     "w ← w + η·y·x  and  b ← b + η·y·c²."),
    ("mistakes", "Mistakes this epoch", "run", _RUN,
     "Updates made in the current epoch.\n"
     "An epoch without a mistake ends the run: the data are separated."),
    ("error", "Training error", "classifier", _ALL,
     "Share of the training samples misclassified now:\n"
     "(1/n) · #{ i : yᵢ (w·xᵢ + b) ≤ 0 }."),
    ("w", "w", "classifier", _ALL,
     "The weight vector, normal to the decision boundary w·x + b = 0;\n"
     "it points towards class +1."),
    ("b", "b", "classifier", _ALL,
     "The bias: the boundary is w·x + b = 0, at distance |b| / ‖w‖ from the origin."),
    ("margin", "Margin of (w, b)", "classifier", _ALL,
     "Geometric margin of the current hyperplane on the data:\n"
     "minᵢ yᵢ (w·xᵢ + b) / ‖w‖, the distance of the closest sample.\n"
     "Negative when some sample is on the wrong side."),
    ("priors", "Priors π₋, π₊", "classifier", _CLASS_MODEL,
     "LDA's class priors (default: the class frequencies n₋/n, n₊/n).\n"
     "They shift b by ln(π₊/π₋)."),
    ("covariance", "Pooled covariance Σ", "classifier", _CLASS_MODEL,
     "The covariance Σ shared by both classes: the sum of (xᵢ − μ)(xᵢ − μ)ᵀ\n"
     "over the cases, μ the mean of xᵢ's class (μ₊ or μ₋), divided by n − 2;\n"
     "LDA's w = Σ⁻¹(μ₊ − μ₋)."),
    ("R", "R", "bound", _BOUND,
     "R = maxᵢ ‖x̃ᵢ‖: the radius of the smallest ball around the origin\n"
     "that holds the vectors the perceptron sees: x̃ = (x, c) with a bias\n"
     "(c the bias scale), x itself without."),
    ("gamma", "γ (geometric)", "bound", _BOUND,
     "γ = max over unit w* of minᵢ yᵢ w*·x̃ᵢ: the geometric margin of the best\n"
     "separator through the origin of the vectors the perceptron sees (x̃ = (x, c)\n"
     "with a bias, x without), w* of length 1: a distance. Not a functional margin\n"
     "yᵢ(w·xᵢ + b) of an unscaled w, which the course texts also call γ."),
    ("bound", "Bound", "bound", _BOUND,
     "Novikoff (1962): on linearly separable data the perceptron, started at\n"
     "w = 0, makes at most (R/γ)² updates, in any order and with any η.\n"
     "Proof: wₖ·w* ≥ kηγ and ‖wₖ‖² ≤ kη²R², so kηγ ≤ ‖wₖ‖ ≤ √k·ηR."),
    ("note", "", "bound", _BOUND,
     "With a bias the perceptron works with x̃ = (x, c), c = the bias scale,\n"
     "and a separator w̃ = (w, b/c) through the origin: w̃·x̃ = w·x + b."),
    ("update", "", "update", _UPDATE,
     "The last update with its numbers filled in:\n"
     "w ← w + η·y·x   and   b ← b + η·y·c²."),
    ("status", "", "status", _ALL,
     "What the run is doing, or why it cannot start."),
)
_TIPS = {key: tip for key, _label, _sec, _kind, tip in FIELDS}

_SECTIONS = {
    "data": ("Data", _ALL),
    "run": ("Run", _RUN),
    "classifier": ("Classifier", _ALL),
    "bound": ("Novikoff's bound", _BOUND),
    "update": ("Last update", _UPDATE),
}

#: The label of the epoch's count for a perceptron run and for a run of gradient
#: steps (whose updates, the steps that moved w, need not be mistakes).
_EPOCH_COUNT = ("Mistakes this epoch", "Updates this epoch")

#: The covariance row's label and tip when each class has its own (QDA, naive Bayes).
_PRIORS_LABEL = next(label for key, label, *_rest in FIELDS if key == "priors")
_PER_CLASS = ("Covariances Σ₋, Σ₊",
              "The covariance of each class, from its own samples: QDA's Σ₋ and Σ₊\n"
              "(naive Bayes keeps their diagonals, the variances). Each δₖ(x) uses\n"
              "its own Σₖ: the boundary is a conic (a line when they are equal).")
_POOLED = next((label, tip) for key, label, _sec, _kind, tip in FIELDS if key == "covariance")
#: The labels of the class model's rows with more than two classes.
_MANY_PRIORS = "Priors π₁ … πₘ"
_MANY_PER_CLASS = "Covariances Σ₁ … Σₘ"
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

#: Fields whose value spans the whole width (no label column).
_WIDE = ("note", "update", "status")


class ReadoutPanel(QtWidgets.QWidget):
    """The numbers of the current run, redrawn when the workspace announces a change.

    Parameters
    ----------
    build_when_shown : bool, default=False
        Make the rows when first shown or asked for :meth:`values` (a folded
        section's); until then :meth:`refresh` only follows the data problem.

    ``problemChanged(text)``: the data problem in the UI's words ("" once gone).
    """

    problemChanged = QtCore.Signal(str)

    def __init__(self, workspace, parent=None, *, build_when_shown: bool = False):
        super().__init__(parent)
        self.setObjectName("readoutPanel")
        self._ws = workspace
        self._scale = style.NORMAL
        self._built = False
        self._bound_state = "ok"
        self._values: dict[str, QtWidgets.QLabel] = {}
        self._names: dict[str, QtWidgets.QLabel] = {}
        self._headers: dict[str, QtWidgets.QLabel] = {}
        self._kinds: dict[str, str] = {}

        self._form = QtWidgets.QFormLayout(self, objectName="readoutForm")
        self._form.setContentsMargins(6, 6, 6, 6)
        self._form.setHorizontalSpacing(10)
        self._form.setVerticalSpacing(3)
        self._form.setLabelAlignment(QtCore.Qt.AlignmentFlag.AlignRight)
        self._form.setFieldGrowthPolicy(QtWidgets.QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)

        self._problem = ""
        self._timer = follow_run(self, workspace, self.refresh, "readoutRefreshTimer", theory=True)
        self.set_scale(style.NORMAL)
        if build_when_shown:
            self.refresh()
        else:
            self._build()

    def setVisible(self, visible: bool) -> None:  # noqa: N802 - Qt's name
        # the rows exist before the panel shows (its section unfolds, or the window
        # shows with the section unfolded), so its first frame has them
        if visible:
            self._build()
        super().setVisible(visible)

    def showEvent(self, event: QtGui.QShowEvent) -> None:  # noqa: N802 - Qt's name
        self._build()  # shown with its parent, never shown or hidden itself
        super().showEvent(event)

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        # a new height laid the rows out by their heights at the old one (after LDA then
        # QDA, 'QDA fitted' was drawn over the covariances' last lines): lay them out again
        self._form.invalidate()

    def _build(self) -> None:
        if self._built:
            return
        self._built = True
        section = None
        for key, label, sec, kind, tip in FIELDS:
            if sec != section and sec in _SECTIONS:
                title, header_kind = _SECTIONS[sec]
                header = QtWidgets.QLabel(title, objectName=f"readoutHeader_{sec}")
                header.setContentsMargins(0, 6, 0, 0)
                self._headers[sec] = header
                self._kinds[f"header:{sec}"] = header_kind
                self._form.addRow(header)
            section = sec
            value = QtWidgets.QLabel("—", objectName=f"readout_{key}")
            value.setTextFormat(QtCore.Qt.TextFormat.PlainText)
            value.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
            value.setToolTip(tip)
            # every value may wrap: a narrow dock must never clip a number or a message
            value.setWordWrap(True)
            value.setSizePolicy(QtWidgets.QSizePolicy.Ignored, QtWidgets.QSizePolicy.Preferred)
            self._values[key] = value
            self._kinds[key] = kind
            if key in _WIDE:
                if key == "status":
                    value.setContentsMargins(0, 6, 0, 0)
                self._form.addRow(value)
            else:
                name = QtWidgets.QLabel(label, objectName=f"readoutLabel_{key}")
                name.setToolTip(tip)
                self._names[key] = name
                self._form.addRow(name, value)
        self.set_scale(self._scale)
        self.refresh()

    def values(self) -> dict[str, str]:
        """The text currently shown for each visible field, keyed as in :data:`FIELDS`."""
        self._build()
        return {key: label.text() for key, label in self._values.items() if not label.isHidden()}

    @property
    def problem(self) -> str:
        """The data problem shown, in the UI's words ("" when there is none)."""
        return self._problem

    def bind_messages(self, show_message, clear_message) -> None:
        """Show the data problem through the window's message sink while it holds."""
        shown = {"text": ""}

        def show(text: str) -> None:
            if text:
                show_message(text, 0)
            elif shown["text"]:
                clear_message(shown["text"])
            shown["text"] = text

        self.problemChanged.connect(show)
        show(self._problem)

    def set_scale(self, scale: style.Scale) -> None:
        """Use the font size of ``scale`` (presenter mode enlarges it)."""
        self._scale = scale
        font = style.font(scale.font_pt, self.font())
        self.setFont(font)
        if not self._built:
            return
        bold = style.font(scale.font_pt, font, bold=True)
        for header in self._headers.values():
            header.setFont(bold)
        mono = style.fixed_font(scale.font_pt)
        for key in ("update", "covariance"):
            self._values[key].setFont(mono)
        note = style.font(scale.font_pt * 0.9, font)
        note.setItalic(True)
        self._values["note"].setFont(note)
        factor = scale.font_pt / style.NORMAL.font_pt
        self._form.setHorizontalSpacing(round(10 * factor))
        self._form.setVerticalSpacing(round(3 * factor))
        self._style_bound()
        self.updateGeometry()

    def refresh(self) -> None:
        """Redraw every value from ``workspace.readouts()`` now."""
        self._timer.stop()
        ws = self._ws
        if self._built:
            self._refresh_rows()
        problem = problem_text(ws)
        if problem != self._problem:
            self._problem = problem
            self.problemChanged.emit(problem)

    def _refresh_rows(self) -> None:
        ws = self._ws
        r = ws.readouts()
        caps = ws.capabilities
        sections = {_ALL, *caps.readouts}
        if _RUN in sections and not caps.novikoff:
            sections.add(_BOUND)  # to say plainly that the bound is not about this run
        texts = self._texts(r, sections)
        if not caps.novikoff:  # R and γ are the bound's: only the sentence why not
            for key in ("R", "gamma", "note"):
                texts.pop(key, None)
        self._names["mistakes"].setText(_EPOCH_COUNT[0 if caps.novikoff else 1])
        many = not ws.dataset.is_binary
        self._names["priors"].setText(_MANY_PRIORS if many else _PRIORS_LABEL)
        if "covariance" in texts:  # one pooled Σ (LDA), or one a class (QDA, naive Bayes)
            label, tip = _POOLED if np.ndim(ws.learner.covariance_) == 2 else _PER_CLASS
            if many and label == _PER_CLASS[0]:
                label = _MANY_PER_CLASS
            self._names["covariance"].setText(label)
            for widget in (self._names["covariance"], self._values["covariance"]):
                widget.setToolTip(tip)
        for key, value in self._values.items():
            shown = self._kinds[key] in sections and key in texts
            if shown:
                value.setText(texts[key])
            self._form.setRowVisible(value, shown)
        # the form squeezes a wrapping label when the panel shrinks: its lines stay whole
        for key in ("classes", "note", "covariance"):
            label = self._values[key]
            label.setMinimumHeight(label.fontMetrics().boundingRect(
                QtCore.QRect(0, 0, 1 << 20, 1 << 20), 0, texts.get(key, "")).height())
        for sec, header in self._headers.items():
            self._form.setRowVisible(header, self._kinds[f"header:{sec}"] in sections)
        self._tip_rule(caps)
        self._values["w"].setToolTip(
            "With a kernel, w lives in the kernel's feature space:\n"
            "f(x) = Σᵢ αᵢ yᵢ K(xᵢ, x) + b."
            if ws.capabilities.nonlinear_kernel else _TIPS["w"]
        )
        self._bound_state = (
            "violated" if r.separable and r.k > r.bound
            else "none" if r.separable is False else "ok"
        )
        self._style_bound()

    def _tip_rule(self, caps) -> None:
        """The tooltips that write the mistake condition say the run's rule for a tie."""
        rule = caps.mistake_condition
        for key in ("k", "error", "update"):
            tip = _TIPS[key] if rule is None else f"{_TIPS[key]}\nThe rule in use: {rule}."
            self._values[key].setToolTip(tip)
            if key in self._names:
                self._names[key].setToolTip(tip)

    def _style_bound(self) -> None:
        label = self._values["bound"]
        state = self._bound_state
        font = QtGui.QFont(self.font())
        font.setBold(state != "ok")
        label.setFont(font)
        label.setPalette(bound_palette(self, state == "violated"))

    def _texts(self, r, sections: set) -> dict[str, str]:
        ws = self._ws
        n = ws.dataset.n
        t: dict[str, str] = {"status": problem_text(ws) or r.status or ""}
        # the mapping from the data's names to ±1 stays in sight (not only in a message);
        # always two lines at least (a form row that appears and hides mislays its height)
        data = ws.dataset
        names, counts = data.class_names, (fmt_count(data.n_neg), fmt_count(data.n_pos))
        if not data.is_binary:  # each class by its name, with its count, as listed
            by_class = dict(zip(data.classes, data.class_counts(), strict=True))
            t["classes"] = "\n".join(f"{text}: {fmt_count(by_class[c])}" for c, text in zip(
                data.listed_classes, class_texts(data), strict=True))
        elif names is None:
            t["classes"] = f"−1: {counts[0]}\n+1: {counts[1]}"
        else:
            t["classes"] = f"−1: {names[0]} ({counts[0]})\n+1: {names[1]} ({counts[1]})"
        if data.feature_names is not None:
            t["classes"] += f"\nx₁: {data.feature_names[0]}\nx₂: {data.feature_names[1]}"
        err, wrong = shown_error(ws, r)
        t["error"] = ("—" if math.isnan(err) else
                      f"{fmt_percent(100.0 * err)}  ({fmt_count(wrong)} of {fmt_count(n)})")
        if ws.capabilities.nonlinear_kernel:
            t["w"], t["margin"] = "in feature space (kernel)", "— (kernel)"
        elif ws.multiclass:
            t["w"] = f"one wₖ a class ({ws.dataset.n_classes} classes)"
            t["margin"] = "— (a margin of two classes)"
        elif not ws.capabilities.linear and ws.has_model:
            t["w"], t["margin"] = "— (the boundary is not a line)", "— (not a line)"
        elif r.w is None:
            t["w"] = t["margin"] = "—"
        else:
            t["w"] = fmt_vec(r.w)
            t["margin"] = fmt(r.margin)
            if math.isnan(r.margin) and not any(r.w):
                t["margin"] = "— (w = 0: no hyperplane yet)"
        has_model = r.w is not None or (ws.capabilities.nonlinear_kernel and ws.running)
        t["b"] = fmt(r.b) if has_model else "—"
        if _CLASS_MODEL in sections and ws.has_model:
            model = ws.learner  # its priors_, covariance_, shrinkage_, singular_
            t["priors"] = fmt_vec(model.priors_)
            cov = np.asarray(model.covariance_)
            if cov.ndim == 2:  # one pooled covariance (LDA)
                rows = "\n".join(fmt_vec(row) for row in cov)
            else:  # one a class (QDA, naive Bayes), in the order of classes_: −, +, a
                # matrix row a line, so that no row wraps in the narrow column
                names = (("Σ₋", "Σ₊") if ws.dataset.is_binary else
                         [f"Σ{str(k + 1).translate(_SUBSCRIPTS)}" for k in range(len(cov))])
                rows = "\n".join(f"{name} " + f"\n{' ' * (len(name) + 1)}".join(
                    fmt_vec(row) for row in block) for name, block in zip(names, cov, strict=True))
            extra = []
            if getattr(model, "shrinkage_", 0.0):
                extra.append(f"shrinkage a = {fmt(model.shrinkage_)}")
            if getattr(model, "singular_", False):
                extra.append(f"singular: + {fmt(model.regularization_, 2)}·I")
            t["covariance"] = rows + ("\n" + ", ".join(extra) if extra else "")
        if _RUN not in sections:
            return t
        started = r.epoch > 0
        t["epoch"] = fmt_count(r.epoch) if started else "—"
        t["position"] = (f"{fmt_count(r.position)} / {fmt_count(n)}" if started
                         else f"— / {fmt_count(n)}")
        t["k"] = fmt_count(r.k)
        if r.epoch and ws.current_event.index < 0:  # a pass of batch descent
            t["position"] = f"all {fmt_count(n)} (a pass)"
        t["mistakes"] = fmt_count(r.epoch_mistakes)
        t["R"] = fmt(r.radius)
        t["gamma"] = "— (not separable)" if r.separable is False else fmt(r.gamma)
        t["bound"] = r.bound_text
        nov = ws.novikoff
        if nov is not None and nov.augmented:
            c = fmt(ws.params.get("bias_scale", 1.0))
            space = " in the kernel's feature space" if ws.capabilities.nonlinear_kernel else ""
            t["note"] = f"R and γ are of the augmented vectors x̃ = (x, c), c = {c}{space}."
        elif nov is not None and ws.capabilities.nonlinear_kernel:
            t["note"] = "R and γ are in the kernel's feature space."
        if r.bound_note:  # a run from a hand-set w₀: the bound's assumption, a clause a line
            note = (r.bound_note.replace(", since ", ",\nsince ").replace(" and ‖", "\nand ‖")
                    .replace(" (here ", "\n(here "))
            t["note"] = (t["note"] + "\n" if t.get("note") else "") + note
        t["update"] = r.last_update or "— (no update yet)"
        return t
