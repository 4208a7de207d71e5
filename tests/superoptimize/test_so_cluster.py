"""The search's units on a Dask cluster (`executor="dask://HOST:PORT"`, or a client's executor
from Python): the same μGraphs as the local pool, Ctrl-C stops the cluster's units, and one-line
errors for a scheduler that cannot be reached or a missing `distributed`."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from superoptimize.so_helpers import benchmark_program, build, only_func
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from mirage.dialects.builder import KernelBuilder
from mirage.dialects.hardware import SM_90
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.passes.equivalence.verifier import Verifier
from mirage.passes.superoptimize import search as search_module
from mirage.passes.superoptimize.cluster import ClusterExecutor, ClusterSpec, parse_executor
from mirage.passes.superoptimize.explore import Job
from mirage.passes.superoptimize.interrupt import StopFlag
from mirage.passes.superoptimize.kernelgen import SearchLimits
from mirage.passes.superoptimize.module_pass import PrunerFactory, SuperoptimizePass
from mirage.passes.superoptimize.search import Search, SearchOptions
from mirage.passes.superoptimize.workers import run_unit
from mirage.tools.registry import make_context

try:
    import distributed
except ImportError:  # without the extra dask, only the tests that need no cluster run
    distributed = None

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "rmsnorm_linear_small.mlir"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    pytest.importorskip("distributed")
    # Worker threads in this process (the machine is small); over TCP, so that a
    # mirage-opt started from here reaches it too.
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        protocol="tcp://",
        dashboard_address=None,
    ) as c:
        yield c


@pytest.fixture
def client(cluster: Any) -> Iterator[Any]:
    with distributed.Client(cluster, set_as_default=False) as c:
        yield c


def _executor(cluster: Any) -> str:
    return "dask://" + cluster.scheduler_address.removeprefix("tcp://")


def _softmax(b: KernelBuilder) -> None:
    x = b.input((8, 64), "f32")
    e = b.exp(x)
    b.output(b.div(e, b.reduce_sum(e, 1)))


def _superoptimized(executor: str, **options: object) -> str:
    module = _softmax_module()
    opts: dict[str, object] = {
        "time_budget": 60,
        "max_kernel_ops": 2,
        "max_block_ops": 7,
        "workers": 2,
        "executor": executor,
        **options,
    }
    SuperoptimizePass(**opts).apply(make_context(), module)  # type: ignore[arg-type]
    return str(module)


def _softmax_module() -> ModuleOp:
    b = KernelBuilder()
    _softmax(b)
    return b.build("softmax")


def _refuse(self: object) -> object:
    raise AssertionError("searched although the answer is cached")


def _unit_tasks(stream: Any) -> int:
    return sum(1 for t in stream.data if str(t["key"]).startswith("run_unit"))


def test_the_pass_on_a_cluster_finds_what_the_local_pool_finds(
    cluster: Any, client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = _superoptimized("local")
    assert "kernel.graph" in local
    with distributed.get_task_stream(client=client) as stream:
        remote = _superoptimized(_executor(cluster), cache=str(tmp_path / "cache"))
    assert remote == local
    assert _unit_tasks(stream) > 0
    # Where the units ran is not part of the results cache's key.
    monkeypatch.setattr(search_module.Search, "run", _refuse)
    assert _superoptimized("local", cache=str(tmp_path / "cache")) == local
    monkeypatch.undo()
    # The same cluster named by its scheduler file.
    scheduler_file = tmp_path / "scheduler.json"
    scheduler_file.write_text(json.dumps({"address": cluster.scheduler_address}))
    assert _superoptimized(f"dask-scheduler-file:{scheduler_file}") == local


def test_mirage_opt_runs_the_units_on_a_cluster(cluster: Any) -> None:
    pipeline = f'superoptimize{{time-budget=60 executor="{_executor(cluster)}"}}'
    out = subprocess.run(
        ["mirage-opt", str(FIXTURE), "-p", pipeline],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    module = Parser(make_context(), FIXTURE.read_text()).parse_module()
    SuperoptimizePass(time_budget=60).apply(make_context(), module)
    assert out.stdout.strip() == str(module).strip()
    assert "kernel.graph(" in out.stdout


def test_a_client_executor_from_python_gives_the_local_pools_candidates(client: Any) -> None:
    program = build(_softmax)
    options = SearchOptions(
        time_budget=60,
        max_kernel_ops=2,
        max_block_ops=7,
        workers=2,
        target=SM_90,
        keep=2,
        seed_with_program=False,
    )
    local = Search(program, options, PrunerFactory(None), Verifier(program)).run()
    progress = io.StringIO()
    with distributed.get_task_stream(client=client) as stream:
        remote = Search(
            program,
            options,
            PrunerFactory(None),
            Verifier(program),
            executor=client.get_executor(),
            progress=progress,
        ).run()
    assert local.complete and remote.complete
    assert len(local.ranked) == 2
    assert [r.graph for r in remote.ranked] == [r.graph for r in local.ranked]
    assert remote.units == local.units == _unit_tasks(stream)
    assert remote.stats["candidates"] == local.stats["candidates"]
    assert f"/{remote.units}  explored " in progress.getvalue()


def test_ctrl_c_stops_the_units_running_on_the_cluster(
    cluster: Any, client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    shapes = ((1, 8, 8), (1, 8, 16384), (1, 16384, 8))
    program = graph_from_func(only_func(benchmark_program("gqa", shapes)))
    options = SearchOptions(
        time_budget=300,
        max_kernel_ops=2,
        max_block_ops=10,
        workers=2,
        target=SM_90,
        seed_with_program=False,
    )
    (worker,) = cluster.workers.values()
    real_wait = search_module.wait
    interrupted: list[float] = []

    stop = StopFlag()

    def wait_then_interrupt(*args: Any, **kwargs: Any) -> Any:
        # Ctrl-C (the pass's first SIGINT sets the flag) once both worker threads are
        # inside units.
        if not interrupted and worker.state.executing_count == 2:
            interrupted.append(time.time())
            stop.asked = True
        return real_wait(*args, **kwargs)

    monkeypatch.setattr(search_module, "wait", wait_then_interrupt)
    began = time.time()
    result = Search(
        program,
        options,
        PrunerFactory(None),
        Verifier(program),
        executor=ClusterExecutor(client),
        stop=stop,
    ).run()
    assert interrupted, "the units never ran on the cluster"
    assert not result.complete
    assert time.time() - began < 120
    # Dask does not interrupt a running task: the units see that they were cancelled.
    deadline = time.time() + 10
    while worker.state.executing_count and time.time() < deadline:
        time.sleep(0.1)
    assert worker.state.executing_count == 0
    assert not any(client.processing().values())


def test_a_cancelled_unit_stops_on_its_worker(cluster: Any, client: Any) -> None:
    # The whole tree as one unit: far more than a minute of work.
    shapes = ((1, 8, 8), (1, 8, 16384), (1, 16384, 8))
    program = graph_from_func(only_func(benchmark_program("gqa", shapes)))
    job = Job(program, SearchLimits(2, 10, SM_90, 0), 3, PrunerFactory(None))
    (worker,) = cluster.workers.values()
    executor = ClusterExecutor(client)
    future = executor.submit(run_unit, "whole-tree", job, (), time.time() + 600)
    deadline = time.time() + 60
    while worker.state.executing_count == 0 and time.time() < deadline:
        time.sleep(0.05)
    assert worker.state.executing_count == 1
    time.sleep(1.0)
    assert future.cancel()
    assert future.cancelled()
    # Dask does not interrupt a running task: the unit sees that it was cancelled.
    deadline = time.time() + 20
    while worker.state.executing_count and time.time() < deadline:
        time.sleep(0.1)
    assert worker.state.executing_count == 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_scheduler_that_cannot_be_reached_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    port = _free_port()
    out_file = tmp_path / "out.mlir"
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"}
    out = subprocess.run(
        [
            "mirage-opt",
            str(FIXTURE),
            "-p",
            f'superoptimize{{time-budget=10 executor="dask://127.0.0.1:{port}"}}',
            "-o",
            str(out_file),
        ],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=120,
    )
    assert out.returncode == 1
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0] == (
        f"{FIXTURE}: error: superoptimize: cannot reach the Dask scheduler at "
        f"tcp://127.0.0.1:{port}: no answer within 1 s"
    )
    assert "Traceback" not in out.stderr
    assert not out_file.exists()


def test_a_missing_scheduler_file_is_one_error(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    import dask.config

    with (
        dask.config.set({"distributed.comm.timeouts.connect": "1s"}),
        pytest.raises(
            PassFailedException, match=r"^superoptimize: cannot reach the Dask scheduler of "
        ),
    ):
        _superoptimized(f"dask-scheduler-file:{tmp_path / 'none.json'}")


def test_without_distributed_a_dask_executor_is_one_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mirage.tools.mirage_opt import main

    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    with pytest.raises(SystemExit) as exit_:
        main([str(FIXTURE), "-p", 'superoptimize{executor="dask://127.0.0.1:8786"}'])
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert err == (
        f"{FIXTURE}: error: superoptimize: a Dask executor needs Dask's distributed "
        "scheduler: pip install 'mirage-xdsl[dask]'\n"
    )


def test_mirage_needs_no_dask_for_the_local_pool() -> None:
    code = (
        "import sys\n"
        "sys.modules['distributed'] = sys.modules['dask'] = None\n"
        "import mirage.dialects, mirage.passes, mirage.lowering, mirage.tools.mirage_opt\n"
        "from mirage.passes.superoptimize import SuperoptimizePass, Search\n"
        "from mirage.passes.superoptimize.cluster import unit_executor\n"
        "with unit_executor('local', 2) as units:\n"
        "    assert units.executor is None and units.workers == 2\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("local", None),
        ("dask://10.0.0.5:8786", ClusterSpec(address="tcp://10.0.0.5:8786")),
        ("dask://[::1]:8786", ClusterSpec(address="tcp://[::1]:8786")),
        ("dask-scheduler-file:/shared/s.json", ClusterSpec(scheduler_file="/shared/s.json")),
    ],
)
def test_executor_forms(text: str, spec: ClusterSpec | None) -> None:
    assert parse_executor(text) == spec


@pytest.mark.parametrize(
    "text",
    ["", "dask", "dask://", "dask://host", "dask://host:port", "ray://h:1", "dask-scheduler-file:"],
)
def test_other_executors_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"^executor must be 'local', 'dask://HOST:PORT' or "):
        parse_executor(text)
