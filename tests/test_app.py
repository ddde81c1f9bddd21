"""The command line: main starts the app and quits cleanly (`python -m perceptron_gui`
itself: tests/test_warmup_start.py and tests/test_hostile_cli.py)."""

import shutil
from pathlib import Path

from tests.cli import call, mains_in_one_process

ROOT = Path(__file__).resolve().parents[1]


#: The command lines that open the window, run one after another by ``main`` in one
#: process (``--colour-scheme`` last: it is remembered for the next start).
WINDOWS = {"generated data": ["--generate", "separable", "--quit-after", "0.5"],
           "list demos": ["--list-demos"],
           "a user's demo": ["--demo", "my-bias", "--quit-after", "0.5"],
           "a demo that is not there": ["--demo", "not-mine"],
           "the game": ["--game", "--quit-after", "1"],
           "a colour scheme": ["--colour-scheme", "dark", "--quit-after", "0.5"]}


def test_the_window_command_lines_in_one_process(tmp_path, subtests):
    """Each of :data:`WINDOWS` in turn, in one fresh process with settings and a data
    folder of its own, holding one demo of the user's (``my-bias``, a copy of a shipped
    one): each one's exit status and output, and the settings afterwards."""
    folder = tmp_path / "data" / "perceptron-gui" / "perceptron-gui" / "demos"
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "resources" / "demos" / "bias.json", folder / "my-bias.json")
    results = dict(zip(WINDOWS, mains_in_one_process(tmp_path, *WINDOWS.values()),
                       strict=True))
    settings = tmp_path / "config" / "perceptron-gui" / "perceptron-gui.conf"
    settings = settings.read_text(encoding="utf-8") if settings.exists() else ""
    with subtests.test("the app starts, shows the window and quits"):
        out = results["generated data"]
        assert out.returncode == 0, out.stderr
    with subtests.test("a user's demo is listed and played by name"):
        listed = results["list demos"]
        assert listed.returncode == 0 and listed.stdout.splitlines()[-1] == "my-bias"
        played = results["a user's demo"]
        assert played.returncode == 0, played.stderr
        missing = results["a demo that is not there"]
        assert missing.returncode == 2 and "unknown demo 'not-mine'" in missing.stderr
    with subtests.test("--game opens the window in the game"):
        out = results["the game"]
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    with subtests.test("--colour-scheme draws and remembers the scheme"):
        out = results["a colour scheme"]
        assert out.returncode == 0, out.stderr
        assert "colourScheme=dark" in settings


def test_help_and_version(capsys):
    out = call(capsys, "--help")
    assert out.returncode == 0 and "perceptron-gui" in out.stdout
    out = call(capsys, "--version")
    assert out.returncode == 0 and "0.1.0" in out.stdout


def test_unknown_generator_is_a_clear_error(capsys):
    out = call(capsys, "--generate", "spirals")
    assert out.returncode == 2 and "unknown generator 'spirals'" in out.stderr


def test_collection_pauses_until_resumed_then_freezes_and_goes_to_the_ui_thread(qapp):
    import gc

    from perceptron_gui import app
    from perceptron_gui.ui import interpreter as collector

    before = gc.isenabled()
    frozen = gc.get_freeze_count()
    resume = app.pause_collection()
    try:
        assert not gc.isenabled() and not collector.active()
        kept = [[] for _ in range(100)]  # objects alive at the first frame
        resume()  # the first frame: the heap frozen, collection by the UI thread's timer
        assert collector.active() and not gc.isenabled()
        assert gc.get_freeze_count() >= frozen + len(kept)
        resume()
        assert collector.active()
    finally:
        resume(final=True)  # main's way out: the timer stops, collection as it was
        gc.unfreeze()
    assert not collector.active() and gc.isenabled() == before
    resume()  # a first-frame timer firing after main returned does nothing
    assert not collector.active() and gc.isenabled() == before


def test_help_offers_the_game(capsys):
    out = call(capsys, "--help")
    assert "--game" in out.stdout and "mistake-bound game" in out.stdout


def test_help_names_render_and_the_colour_scheme():
    """``--help`` points to ``render`` and offers every choice of View ▸ Colour scheme."""
    from perceptron_gui.app import COLOUR_SCHEMES, build_parser
    from perceptron_gui.ui import theme

    text = " ".join(build_parser().format_help().split())
    assert "perceptron-gui render FILE -o OUT" in text and "render --help" in text
    assert "--colour-scheme" in text
    assert COLOUR_SCHEMES == tuple(key for key, _ in theme.CHOICES)
    for key in COLOUR_SCHEMES:
        assert key in text


def test_an_unknown_colour_scheme_is_refused(capsys):
    bad = call(capsys, "--colour-scheme", "sepia")
    assert bad.returncode == 2 and "sepia" in bad.stderr
