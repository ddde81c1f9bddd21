"""A large table read in chunks names a bad byte past its first chunks."""

import pytest

from perceptron_gui.core.io import FormatError
from perceptron_gui.core.io.tabular import reader


def test_a_byte_not_utf8_after_a_bad_row_is_placed_in_a_chunked_read(tmp_path, monkeypatch):
    rows = ["x,y,label", "1,abc,1"] + [f"{i},{i},{1 if i % 2 else -1}" for i in range(20_000)]
    data = ("\n".join(rows) + "\n").encode() + b"5,5,\xff\n"
    path = tmp_path / "late.csv"
    path.write_bytes(data)
    monkeypatch.setattr(reader, "_ONE_READ_BYTES", 0)  # chunks, as for a file over 64 MB
    monkeypatch.setattr(reader, "_CHUNK_BYTES", 1000)
    bad = data.index(b"\xff")
    line = data.count(b"\n", 0, bad) + 1

    with pytest.raises(FormatError) as info:
        reader.read_table(path)

    assert str(info.value) == (f"not UTF-8 text at byte {bad:,} (line {line:,}); "
                               "save the file as UTF-8")
