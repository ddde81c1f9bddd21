"""Delimited import with every class: the classes and labels are scikit-learn's ``classes_``."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.preprocessing import LabelEncoder

from perceptron_gui.core.io.tabular import read_table

WORDS = st.text("abAB _xyz", min_size=1, max_size=6).map(str.strip).filter(
    lambda s: s and not s.replace(".", "").isdigit())
NUMBERS = st.one_of(st.integers(-20, 20), st.sampled_from((0.5, 2.5, -3.25)))


@settings(max_examples=25, deadline=None)
@given(st.one_of(st.lists(WORDS, min_size=3, max_size=8, unique=True),
                 st.lists(NUMBERS, min_size=3, max_size=8, unique=True)),
       st.lists(st.integers(0, 7), min_size=8, max_size=40), st.data())
def test_every_class_numbered_as_scikit_learn_numbers_them(values, picks, data):
    picks = list(range(len(values))) + [p % len(values) for p in picks]  # every value occurs
    picks = data.draw(st.permutations(picks))
    labels = [values[p] for p in picks]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.csv"
        rows = "".join(f"{i},{i * 0.25},{v}\n" for i, v in enumerate(labels))
        path.write_text("x,y,label\n" + rows, encoding="utf-8")
        ds = read_table(path, x="x", y="y", label="label", all_classes=True).dataset
        column = pd.read_csv(path)["label"]
    oracle = LabelEncoder().fit(column)
    assert ds.classes == tuple(range(len(oracle.classes_)))
    np.testing.assert_array_equal(ds.y, oracle.transform(column))
    for value, name in zip(oracle.classes_, ds.class_names, strict=True):  # "label 2.5"
        assert (name == value if isinstance(value, str)
                else name == f"label {name.split()[-1]}" and float(name.split()[-1]) == value)
