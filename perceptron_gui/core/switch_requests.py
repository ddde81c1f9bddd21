"""Changes of learner or parameters built in a worker on large data, and withdrawn learners.

A part of :class:`~.workspace.Workspace` (a mixin): the old learner stays
shown until :meth:`SwitchRequests.commit_switch` installs the new one, unless
something newer came first.
"""

from __future__ import annotations

from .learners import registry
from .learners.registry import LEARNERS
from .switch import Switch

__all__ = ["SwitchRequests"]


class SwitchRequests:
    """The members of :class:`~.workspace.Workspace` about a switch built in a worker."""

    def learner_withdrawn(self, key: str) -> None:
        """Let go of learner ``key``, about to be unregistered (:data:`~.registry.withdrawing`).

        The learner in use falls back to the registry's default, saying so.
        """
        doc = self.document
        doc.params.pop(key, None)
        switch = self._switch
        dropped = switch is not None and switch.learner_name == key
        if dropped:
            self._switch = None
        elif switch is not None:
            switch.params.pop(key, None)  # its commit must not bring them back
        if doc.learner_name != key:
            if dropped:
                self.events.switch_changed.emit()
            return
        doc.learner_name = registry.DEFAULT
        self._rebuild()
        self.events.learner_changed.emit()
        self.events.message.emit(f"{LEARNERS[key]} is no longer available (unregistered): "
                          f"now using {LEARNERS[registry.DEFAULT]}.")

    @property
    def pending_switch(self) -> Switch | None:
        """The requested change of learner or parameters not installed yet, or None."""
        return self._switch

    def request_learner(self, name: str) -> Switch | None:
        """Switch learner now, or on a large data set return the :class:`Switch` to build.

        A request made while another is pending starts from the other's choice.
        """
        self.document.check_learner_key(name)
        if not self._switches_in_worker():
            self.set_learner(name)
            return None
        params = self._switch.params if self._switch is not None else self.document.params
        if name not in params:  # registered since the pending switch was made
            params = dict(params, **{name: self.document.params[name]})
        return self._request(name, params)

    def request_params(self, learner: str | None = None, **values) -> Switch | None:
        """As :meth:`set_params`, or on a large data set return the :class:`Switch` to build."""
        if not self._switches_in_worker():
            self.set_params(learner, **values)
            return None
        doc = self.document
        name = self._switch.learner_name if self._switch is not None else doc.learner_name
        base = self._switch.params if self._switch is not None else doc.params
        key = learner or name
        doc.check_learner_key(key)
        trial = doc.trial(key, values, base=base.get(key, doc.params[key]))
        params = {k: dict(v) for k, v in base.items()}
        params[key] = trial
        return self._request(name, params)

    def _request(self, name: str, params: dict) -> Switch | None:
        doc = self.document
        if name == doc.learner_name and params[name] == doc.params[name]:
            # the learner in use stays: no switch, only other learners' parameters
            dropped = self._drop_switch()
            for key, values in params.items():
                if key != name and values != doc.params.get(key):
                    self._set_valid_params(key, dict(values))
            doc.params = {k: dict(v) for k, v in params.items()}
            if dropped:
                self.events.switch_changed.emit()
            return None
        fitted = self.theory.fitted(name, params[name])
        self._switch = Switch(self.dataset, name, params, fitted=fitted,
                              margin_data=self.theory.per_data.get("margin_data"),
                              defers=self.theory.deferred, start=self.start)
        self.events.switch_changed.emit()
        return self._switch

    def commit_switch(self, switch: Switch) -> bool:
        """Install a built switch (on the UI thread); False, and nothing changes, if stale.

        A switch is stale once another request, a data edit or a synchronous
        change came after it.
        """
        if switch is not self._switch or switch.model is None:
            return False
        self._switch = None
        doc = self.document
        doc.params = {k: dict(v) for k, v in switch.params.items()}
        doc.learner_name = switch.learner_name
        per_data = self.theory.per_data
        if switch.margin_data is not None:
            per_data.setdefault("margin_data", switch.margin_data)
        fitted = switch.model.cache.get("fit")
        if fitted is not None:
            per_data[("fit", doc.learner_name)] = (dict(doc.current), fitted)
        self._install(switch.model)
        self.events.learner_changed.emit()
        return True

    def drop_switch(self, switch: Switch, why: str | None = None) -> bool:
        """Forget ``switch`` (its build failed: ``why`` is shown); False if it was stale."""
        if switch is not self._switch:
            return False
        self._switch = None
        if why:
            self.events.message.emit(
                f"Not changed: cannot use these parameters on this data: {why}")
        self.events.switch_changed.emit()
        return True

    def _remake_switch(self) -> None:
        if self._switch is not None:
            self._switch = Switch(self.dataset, self._switch.learner_name, self._switch.params,
                                  defers=self.theory.deferred, start=self.start)

    def _drop_switch(self) -> bool:
        dropped = self._switch is not None
        self._switch = None
        return dropped
