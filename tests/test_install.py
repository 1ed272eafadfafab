"""`pip install .` gives a working scorer: the models are package data, not files of the checkout."""

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from photos import CASES, photo, truth

ROOT = Path(__file__).parent.parent


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git to list the sources")
def test_pip_install_then_score_from_another_folder(tmp_path):
    source = tmp_path / "source"  # a clean copy: building leaves nothing in the checkout
    tracked = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    for name in tracked:
        if (ROOT / name).is_file() and not name.startswith(("tests/", "docs/", "training/")):
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    fresh = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(fresh)], check=True)
    # the fresh venv sees this one's dependencies, but not its editable checkout
    site = Path(subprocess.run([fresh / "bin" / "python", "-c", "import sysconfig; print("
                                "sysconfig.get_paths()['purelib'])"], capture_output=True,
                               text=True, check=True).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(fresh / "bin" / "python"),
                    "install", "--quiet", "--no-deps", str(source)],
                   check=True, capture_output=True)
    shutil.rmtree(source)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    case = CASES[0]
    run = subprocess.run([fresh / "bin" / "btc-scorer", "score", "--json", str(photo(case))],
                         cwd=elsewhere, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert f'"{truth(case)["grid"][0][0]}"' in run.stdout
    where = subprocess.run([fresh / "bin" / "python", "-c", "import scorer; print(scorer.__file__)"],
                           cwd=elsewhere, capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(fresh))
