"""The README: its Python example runs as written, its commands exist, its apt line is CI's."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_python_example_runs():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "README has no Python example"
    namespace = {"__name__": "readme"}  # the blocks read top to bottom, as a reader runs them
    for code in blocks:
        exec(compile(code, "README.md", "exec"), namespace)


def test_readme_commands_are_make_targets():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("run", "test"):
        assert f"make {target}" in text
        assert re.search(rf"^{target}:", makefile, flags=re.M)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in ci


def _readme_apt_packages() -> list[str]:
    """The packages of the README's one ``apt-get install`` command, in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [
        line
        for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S)
        for line in block.replace("\\\n", " ").splitlines()
        if "apt-get install" in line
    ]
    assert len(commands) == 1, commands
    words = commands[0].split("apt-get install", 1)[1].split()
    return [word for word in words if not word.startswith("-")]


def _listed_packages() -> list[str]:
    lines = (ROOT / ".ci" / "debian-packages.txt").read_text(encoding="utf-8").splitlines()
    return [line.split("#", 1)[0].strip() for line in lines if line.split("#", 1)[0].strip()]


def test_readme_apt_line_is_the_ci_package_list():
    listed = _listed_packages()
    assert {"python3-venv", "make", "libxcb-icccm4", "libxkbcommon-x11-0"} <= set(listed)
    assert _readme_apt_packages() == listed


def test_ci_installs_the_package_list_and_xvfb():
    out = subprocess.run(["bash", str(ROOT / ".ci" / "run"), "--list-packages"],
                         capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.split() == [*_listed_packages(), "xvfb"]


#: Debian packages whose fonts draw Chinese (a caption in Chinese, as seed 004 is written).
CJK_FONT_PACKAGES = {"fonts-wqy-microhei", "fonts-wqy-zenhei", "fonts-noto-cjk"}


def test_the_package_list_has_a_font_with_chinese_glyphs():
    assert CJK_FONT_PACKAGES & set(_listed_packages())
    assert CJK_FONT_PACKAGES & set(_readme_apt_packages())


def _section(title: str) -> str:
    """The README's text under the heading ``title`` (any level), to the next heading."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(rf"^#+ {re.escape(title)}\n(.*?)(?=^#)", text, flags=re.S | re.M)
    assert match, title
    return match.group(1)


def _bullets(title: str) -> list[tuple[str, str]]:
    """The ``- **Name** (`key`…)`` bullets of a section: (name, key), in order."""
    return re.findall(r"^- \*\*(.+?)\*\* \(`([\w-]+)`", _section(title), flags=re.M)


def test_readme_lists_every_learner_of_the_registry():
    from perceptron_gui.core.learners import registry

    shipped = [(name, key) for key, name in registry.LEARNERS.items() if key in registry.BUILTIN]
    assert _bullets("The learners") == shipped


def test_readme_lists_every_demo_shipped():
    from perceptron_gui.core import demos

    listed = re.findall(r"^\s*\| `([\w-]+)` \|", _section("Teaching with it"), flags=re.M)
    assert listed == demos.list_demos()


def test_readme_lists_every_view():
    from perceptron_gui.ui.views import VIEW_TYPES

    shipped = [(cls.title, key) for key, cls in VIEW_TYPES.items()
               if cls.__module__.startswith("perceptron_gui.")]
    assert _bullets("The views") == shipped


def test_readme_names_every_mode():
    """Each mode of the window, as registered by the feature modules, is named."""
    import importlib
    import pkgutil

    from perceptron_gui.ui import features, modes

    for info in pkgutil.iter_modules(features.__path__):
        importlib.import_module(f"{features.__name__}.{info.name}")
    named = set(re.findall(r"\(`([\w-]+)`", _section("The modes")))
    assert set(modes.MODE_TYPES) <= named, set(modes.MODE_TYPES) - named
