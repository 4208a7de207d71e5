"""Runs the lit + FileCheck suite under tests/filecheck as part of pytest."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SUITE = Path(__file__).parent / "filecheck"


def test_filecheck_suite() -> None:
    lit = shutil.which("lit")
    if lit is None:
        pytest.fail("lit is not installed (pip install -e '.[test]')")
    jobs = "2"
    proc = subprocess.run(
        [lit, "-j", jobs, "-q", str(SUITE)], capture_output=True, text=True, check=False
    )
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    assert proc.returncode == 0, f"lit failed:\n{proc.stdout}\n{proc.stderr}"
