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
