"""The command line: entry points start the app and quit cleanly."""

import os
import subprocess
import sys
import tempfile


def _run(*args, timeout=120):
    home = tempfile.mkdtemp(prefix="perceptron-gui-test-")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=f"{home}/config",
               XDG_DATA_HOME=f"{home}/data")
    return subprocess.run([sys.executable, "-m", "perceptron_gui", *args], capture_output=True,
                          text=True, timeout=timeout, env=env)


def test_help_and_version():
    out = _run("--help")
    assert out.returncode == 0 and "perceptron-gui" in out.stdout
    out = _run("--version")
    assert out.returncode == 0 and "0.1.0" in out.stdout


def test_app_starts_shows_the_window_and_quits(tmp_path):
    out = _run("--generate", "separable", "--quit-after", "0.5")
    assert out.returncode == 0, out.stderr


def test_unknown_generator_is_a_clear_error():
    out = _run("--generate", "spirals")
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


def test_a_users_demo_is_listed_and_played_by_name():
    """A demo saved in the user's data folder: ``--list-demos`` lists it, ``--demo`` plays it."""
    home = tempfile.mkdtemp(prefix="perceptron-gui-test-")
    folder = os.path.join(home, "data", "perceptron-gui", "perceptron-gui", "demos")
    os.makedirs(folder)
    with open(os.path.join(os.path.dirname(__file__), "..", "resources", "demos", "bias.json"),
              encoding="utf-8") as f:
        text = f.read()
    with open(os.path.join(folder, "my-bias.json"), "w", encoding="utf-8") as f:
        f.write(text)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=f"{home}/config",
               XDG_DATA_HOME=f"{home}/data")

    def run(*args):
        return subprocess.run([sys.executable, "-m", "perceptron_gui", *args],
                              capture_output=True, text=True, timeout=120, env=env)

    listed = run("--list-demos")
    assert listed.returncode == 0 and listed.stdout.splitlines()[-1] == "my-bias"
    played = run("--demo", "my-bias", "--quit-after", "0.5")
    assert played.returncode == 0, played.stderr
    missing = run("--demo", "not-mine")
    assert missing.returncode == 2 and "unknown demo 'not-mine'" in missing.stderr
def test_game_opens_the_window_in_the_game():
    out = _run("--help")
    assert "--game" in out.stdout and "mistake-bound game" in out.stdout
    out = _run("--game", "--quit-after", "1")
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr


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


def test_colour_scheme_option_draws_and_remembers_the_scheme():
    home = tempfile.mkdtemp(prefix="perceptron-gui-test-")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=f"{home}/config",
               XDG_DATA_HOME=f"{home}/data")
    out = subprocess.run([sys.executable, "-m", "perceptron_gui", "--colour-scheme", "dark",
                          "--quit-after", "0.5"], capture_output=True, text=True, timeout=120,
                         env=env)
    assert out.returncode == 0, out.stderr
    settings = os.path.join(home, "config", "perceptron-gui", "perceptron-gui.conf")
    with open(settings, encoding="utf-8") as f:
        assert "colourScheme=dark" in f.read()
    bad = _run("--colour-scheme", "sepia")
    assert bad.returncode == 2 and "sepia" in bad.stderr
