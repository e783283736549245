"""Live tables under load: ``blackout serve`` played by a load client over real WebSockets.

    python bench/server.py                       # SQLite, then PostgreSQL, then 2 processes
    python bench/server.py --configs sqlite --tables 50 --seconds 20

Each configuration starts fresh: a new database, ``blackout serve`` process(es) on free
ports of 127.0.0.1, then the load client in a process of its own, pinned to one core
(``--client-cpu``, so it cannot eat the servers' cores; its measured share is reported).
The client seats ``--tables`` tables of the standard game (13 hands, 4 seats: two scripted
people and two ``bot:basic``), opens a WebSocket per person and one spectator per table,
and plays: a person whose turn the stream announces waits ``--think`` seconds (random,
±50 %) and posts a random legal move with its move number.  Over the ``--seconds`` window
it records, for every move a person made, the time from sending the move until all three
clients at that table had the move's last event (p50, p99), the moves per second of every
seat (people and bots, counted from the spectators' streams), and the servers' CPU seconds
per move (from /proc).  The client's garbage collector is off from the window's start
until its last move has been seen: its pauses (up to a quarter of a second) would stop it
reading the sockets and be counted as the server's delay.

``--profile DIR`` samples every server process with py-spy (the thread holding the GIL)
during the measured window
(``pip install py-spy``; it adds a little CPU of its own) and prints where the servers'
CPU went, by part (the runner, a person's move, the WebSocket states, ...), per move.

``--server-cpu F`` caps each server process at F of a core (a CPU cgroup of its own with
a CFS quota; needs root and the cgroup ``cpu`` controller): one process and two processes
then get the same CPU each, whatever else the machine runs, so how the moves/s grow from
one to two tells how the server scales out, on a machine with too few cores to give two
servers, the database and the client a core each.

``--potomac`` (on by default) then plays one long Potomac game (4 people, hands 13..1..13)
through the API and reports the median time of a move near move 10 and near move 300.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.web.live import postgres_database  # the tests' own fresh database

USERS = 40
LONG_GAME_MOVES = 320  # the Potomac game is played this far (13..1..13 has about 800)
PASSWORD = "bench-password"
LATE = 5.0  # seconds the clients listen on after the window, for moves timed in it
PG_DEFAULT = "postgresql+psycopg://root@127.0.0.1:5432/test"


# -- the orchestrator -----------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--configs", default="sqlite,postgresql,postgresql-2",
                        help="comma-separated: sqlite, postgresql, postgresql-2")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=40.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument("--think", type=float, default=2.0,
                        help="a scripted person's mean thinking time (seconds)")
    parser.add_argument("--bot-pace", type=float, default=0.8)
    parser.add_argument("--pg-url", default=os.environ.get("BLACKOUT_TEST_POSTGRES_URL",
                                                           PG_DEFAULT))
    parser.add_argument("--client-cpu", type=int, default=1, help="core the client runs on")
    parser.add_argument("--server-cpu", type=float, metavar="F",
                        help="cap each server process at F of a core (a CPU cgroup each)")
    parser.add_argument("--no-potomac", dest="potomac", action="store_false")
    parser.add_argument("--profile", metavar="DIR",
                        help="sample the servers with py-spy during the window, into DIR")
    parser.add_argument("--client", help=argparse.SUPPRESS)  # the load client's own role
    args = parser.parse_args()
    if args.client:
        asyncio.run(LoadClient(json.loads(args.client)).run())
        return
    results = []
    for config in args.configs.split(","):
        with database(config, args.pg_url) as url:
            sign_up(url)
            with servers(url, 2 if config.endswith("-2") else 1, args.bot_pace,
                         args.server_cpu) as running:
                results.append(measure(config, running, args))
                print(json.dumps(results[-1]), flush=True)
    if args.potomac:
        with database("sqlite", args.pg_url) as url:
            sign_up(url)
            with servers(url, 1, 0.0, args.server_cpu) as running:
                results.append(move_cost(running[0]))
                print(json.dumps(results[-1]), flush=True)
    print(report(results, args))


@contextmanager
def database(config: str, pg_url: str) -> Iterator[str]:
    """A fresh database: a SQLite file, or a new PostgreSQL database dropped afterwards."""
    if config == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{folder}/bench.db"
        return
    yield from postgres_database(pg_url)


def sign_up(url: str) -> None:
    from blackout.service import Services

    services = Services.open(url=url)
    try:
        for i in range(USERS):
            services.accounts.signup(f"p{i}", f"p{i}@example.org", PASSWORD)
    finally:
        services.close()


class Server:
    def __init__(self, url: str, bot_pace: float, cpu: float | None = None) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.base = f"127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "blackout.cli.main", "serve", "--port", str(self.port),
             "--db", url, "--bot-pace", str(bot_pace), "--log-level", "warning"],
            stderr=subprocess.PIPE, text=True)
        self.cgroup = None if cpu is None else CpuCap(f"blackout-bench-{self.port}", cpu)
        if self.cgroup is not None:
            self.cgroup.hold(self.process.pid)  # before it starts its threads

    def wait_ready(self) -> None:
        import httpx

        for _ in range(300):
            if self.process.poll() is not None:
                raise SystemExit(f"server exited: {self.process.communicate()[1]}")
            try:
                httpx.get(f"http://{self.base}/api/variants", timeout=1)
                return
            except httpx.TransportError:
                time.sleep(0.1)
        raise SystemExit("server did not start")

    def cpu(self) -> float:
        """CPU seconds (user + system) the server process has used."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.cgroup is not None:
            self.cgroup.remove()


class CpuCap:
    """A CPU cgroup allowing ``cores`` of a core (CFS quota over a 100 ms period): the
    v2 hierarchy where it has the cpu controller, else v1's ``cpu`` hierarchy."""

    PERIOD_US = 100_000

    def __init__(self, name: str, cores: float) -> None:
        if not 0 < cores <= (os.cpu_count() or 1):
            raise SystemExit(f"--server-cpu must be above 0 and at most {os.cpu_count()}")
        quota = int(cores * self.PERIOD_US)
        v2 = Path("/sys/fs/cgroup/unified")
        if not (v2 / "cgroup.controllers").exists():
            v2 = Path("/sys/fs/cgroup")
        v1 = Path("/sys/fs/cgroup/cpu")
        try:
            if "cpu" in (v2 / "cgroup.controllers").read_text().split():
                self.path = v2 / name
                self.path.mkdir()
                (self.path / "cpu.max").write_text(f"{quota} {self.PERIOD_US}")
            else:
                self.path = v1 / name
                self.path.mkdir()
                (self.path / "cpu.cfs_period_us").write_text(str(self.PERIOD_US))
                (self.path / "cpu.cfs_quota_us").write_text(str(quota))
        except OSError as exc:
            raise SystemExit(f"--server-cpu needs a writable CPU cgroup (root): {exc}") from None

    def hold(self, pid: int) -> None:
        (self.path / "cgroup.procs").write_text(str(pid))

    def remove(self) -> None:
        with contextlib.suppress(OSError):  # a process still in it: left to the machine
            self.path.rmdir()


def machine_cpu() -> tuple[float, float]:
    """(busy, all) CPU time of the whole machine so far, in clock ticks (/proc/stat)."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle, iowait
    return float(sum(ticks[:8]) - idle), float(sum(ticks[:8]))


def database_cpu() -> float:
    """CPU seconds used so far by the PostgreSQL server's processes on this machine, the
    backends that have exited included (their parent's cutime and cstime)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # the process ended meanwhile
            continue
        if "(postgres)" in text:
            fields = text.rsplit(")", 1)[1].split()
            total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    return total / os.sysconf("SC_CLK_TCK")


@contextmanager
def servers(url: str, count: int, bot_pace: float, cpu: float | None = None,
            ) -> Iterator[list[Server]]:
    running = [Server(url, bot_pace, cpu) for _ in range(count)]
    try:
        for server in running:
            server.wait_ready()
        yield running
    finally:
        for server in running:
            server.stop()


def measure(config: str, running: list[Server], args: argparse.Namespace) -> dict[str, Any]:
    plan = {"bases": [s.base for s in running], "tables": args.tables, "think": args.think,
            "seconds": args.seconds, "warmup": args.warmup, "cpu": args.client_cpu}
    client = subprocess.Popen([sys.executable, __file__, "--client", json.dumps(plan)],
                              stdout=subprocess.PIPE, text=True)
    assert client.stdout is not None
    cpu_start = cpu_end = 0.0
    outcome: dict[str, Any] = {}
    spies: list[tuple[subprocess.Popen[bytes], Path]] = []
    machine_start = machine_end = (0.0, 0.0)
    db_start = db_end = 0.0
    for line in client.stdout:
        if line.startswith("START"):
            cpu_start = sum(s.cpu() for s in running)
            machine_start, db_start = machine_cpu(), database_cpu()
            if args.profile:
                paths = [Path(args.profile) / f"{config}-{i}.txt" for i in range(len(running))]
                spies = [(spy(server, path, args.seconds), path)
                         for server, path in zip(running, paths, strict=True)]
        elif line.startswith("END"):
            cpu_end = sum(s.cpu() for s in running)
            machine_end, db_end = machine_cpu(), database_cpu()
        elif line.startswith("{"):
            outcome = json.loads(line)
    client.wait()
    moves = outcome.get("moves", 0)
    busy, total = (end - start for start, end in zip(machine_start, machine_end, strict=True))
    outcome.update(config=config, processes=len(running), server_cpu=cpu_end - cpu_start,
                   cpu_per_move_ms=1000 * (cpu_end - cpu_start) / moves if moves else None,
                   database_cpu_per_move_ms=1000 * (db_end - db_start) / moves if moves
                   else None,
                   machine_busy_cores=busy / total * (os.cpu_count() or 1) if total else None)
    if spies:
        for process, _ in spies:
            process.wait(60)
        outcome["profile"] = profile([path for _, path in spies], outcome["server_cpu"],
                                     moves)
    return outcome


def spy(server: Server, path: Path, seconds: float) -> subprocess.Popen[bytes]:
    """py-spy sampling ``server`` for ``seconds``: the thread holding the GIL (so Python's
    CPU, not threads waiting for it), as collapsed stacks."""
    path.parent.mkdir(parents=True, exist_ok=True)
    py_spy = Path(sys.executable).with_name("py-spy")
    return subprocess.Popen([str(py_spy), "record", "--pid", str(server.process.pid),
                             "--duration", str(int(seconds)), "--rate", "100",
                             "--gil", "--nonblocking", "--format", "raw",
                             "--output", str(path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


#: Where a sample's CPU goes: the first part (in this order) with a frame in the sample's
#: stack of that function in that file.  Service calls made with ``to_thread`` run in
#: worker threads whose stacks start at the service, hence the service-level names.
PARTS = [
    ("runner: claim the due boards, instant bots play", "claim_due", "service/runner.py"),
    ("runner: the bot thinks", "_think", "service/runner.py"),
    ("runner: write the bot's move", "_play", "service/runner.py"),
    ("runner: next_due, catch-up", "next_due", "service/runner.py"),
    ("POST move (tables.move, state from the write)", "move", "service/tables.py"),
    ("GET table", "table", "web/api.py"),
    ("WebSocket: first state on connect", "table", "service/queries.py"),
    ("WebSocket: the board read, once a batch", "read", "service/store.py"),
    ("WebSocket: each socket's state from it", "state_for", "web/live.py"),
    ("WebSocket: events read", "events", "service/queries.py"),
    ("WebSocket: presence", "presence", "service/tables.py"),
    ("sessions.userid_for", "userid_for", "service/sessions.py"),
    ("bus (NOTIFY, LISTEN)", "", "service/bus.py"),
]
FRAME = re.compile(r"^(?P<function>.*) \((?P<file>[^()]*):\d+\)$")


#: A sample whose innermost frame is one of these is a thread waiting (py-spy's
#: --nonblocking sampling cannot always tell): the event loop in select (a native call
#: under asyncio's run), a worker waiting for work, a query waiting for the database.
WAITING = [("run", "asyncio/runners.py"), ("wait", "threading.py"), ("get", "queue.py"),
           ("wait", "psycopg/connection.py"), ("notifies", "psycopg/connection.py"),
           ("select", "selectors.py")]
IDLE = "waiting"


def part_of(frames: list[str]) -> str:
    found = [(m["function"].rsplit(".", 1)[-1], m["file"])  # Class.method -> method
             for m in map(FRAME.match, frames) if m is not None]
    if found and any(found[-1][0] == function and found[-1][1].endswith(file)
                     for function, file in WAITING):
        return IDLE
    for name, function, file in PARTS:
        if any(f.endswith(file) and function in ("", fn) for fn, f in found):
            return name
    return "web layer and the rest (uvicorn, FastAPI, JSON, frames)"


def profile(paths: list[Path], server_cpu: float, moves: int) -> dict[str, Any]:
    """Busy samples by part (see PARTS; the rest is the web layer: uvicorn, FastAPI,
    JSON, WebSocket frames and their compression), scaled to the servers' measured CPU,
    in ms per move.  Waiting samples (see WAITING) are left out."""
    counts: dict[str, int] = {}
    total = 0
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not count.isdigit():
                continue
            part = part_of(stack.split(";"))
            if part == IDLE:
                continue
            counts[part] = counts.get(part, 0) + int(count)
            total += int(count)
    if not total or not moves:
        return {}
    return {part: round(1000 * server_cpu * n / total / moves, 2)
            for part, n in sorted(counts.items(), key=lambda item: -item[1])}


def move_cost(server: Server) -> dict[str, Any]:
    """One long Potomac game, four people, one move at a time: time per move by number."""
    import httpx

    base = f"http://{server.base}"
    tokens = [httpx.post(f"{base}/api/session", json={"userid": f"p{i}", "password": PASSWORD}
                         ).json()["token"] for i in range(4)]
    clients = [httpx.Client(base_url=base, headers={"Authorization": f"Bearer {t}"},
                            timeout=30) for t in tokens]
    board = clients[0].post("/api/tables", json={
        "variant": "potomac", "options": {}, "seats": [f"p{i}" for i in range(4)]}).json()["board"]
    for client in clients[1:]:
        client.post(f"/api/tables/{board}/join", json={})
    rng = random.Random(1)
    times: dict[int, float] = {}
    cpu: dict[int, float] = {}
    seats = {seat["seat"]: int(seat["player"][1:])
             for seat in clients[0].get(f"/api/tables/{board}").json()["seats"]}
    number = 0
    while number < LONG_GAME_MOVES:
        public = httpx.get(f"{base}/api/tables/{board}").json()
        if public["status"] != "active":
            break
        mover = seats[public["view"]["to_move"]]
        state = clients[mover].get(f"/api/tables/{board}").json()
        number = state["next_move"]
        action = rng.choice(state["view"]["legal_actions"])
        cpu_before, start = server.cpu(), time.perf_counter()
        answer = clients[mover].post(f"/api/tables/{board}/moves",
                                     json={"action": action, "expect": number})
        times[number] = time.perf_counter() - start
        cpu[number] = server.cpu() - cpu_before
        assert answer.status_code == 200, answer.text

    def around(n: int) -> dict[str, float]:
        window = [m for m in times if n - 10 <= m < n + 10]
        return {"moves": len(window),
                "median_ms": 1000 * statistics.median(times[m] for m in window),
                "cpu_ms": 1000 * sum(cpu[m] for m in window) / len(window)}

    return {"config": "potomac-long", "moves_played": max(times), "at_10": around(10),
            "at_300": around(300)}


def report(results: list[dict[str, Any]], args: argparse.Namespace) -> str:
    cap = "" if args.server_cpu is None else f", each server capped at {args.server_cpu} core"
    lines = [f"{args.tables} tables, think {args.think} s, bot pace {args.bot_pace} s, "
             f"{args.seconds:.0f} s measured after {args.warmup:.0f} s{cap}",
             "config          procs  moves/s  p50 ms  p99 ms  CPU/move ms  client CPU share"]
    for r in results:
        if r["config"] == "potomac-long":
            lines.append(f"Potomac, 4 people, one move at a time: move ~10 "
                         f"{r['at_10']['median_ms']:.1f} ms ({r['at_10']['cpu_ms']:.1f} ms "
                         f"server CPU), move ~300 {r['at_300']['median_ms']:.1f} ms "
                         f"({r['at_300']['cpu_ms']:.1f} ms server CPU)")
            continue
        lines.append(f"{r['config']:<15} {r['processes']:>5}  {r['moves_per_s']:>7.1f}  "
                     f"{r['p50_ms']:>6.1f}  {r['p99_ms']:>6.1f}  {r['cpu_per_move_ms']:>11.2f}"
                     f"  {100 * r['client_cpu_share']:>5.1f} % of 2 cores "
                     f"({r['measured_moves']} person moves timed, {r['missing']} not seen, "
                     f"{r['failed']} refused or failed; the move's HTTP answer p50 "
                     f"{r.get('answer_p50_ms', float('nan')):.1f} ms, p99 "
                     f"{r.get('answer_p99_ms', float('nan')):.1f} ms)")
        lines.append(f"{'':<15} machine busy {r['machine_busy_cores']:.2f} of "
                     f"{os.cpu_count()} cores; PostgreSQL's processes "
                     f"{r['database_cpu_per_move_ms']:.2f} ms CPU a move")
        for part, ms in r.get("profile", {}).items():
            lines.append(f"    {part:<48} {ms:>6.2f} ms a move")
    return "\n".join(lines)


# -- the load client (its own process) --------------------------------------------------------


class LoadClient:
    def __init__(self, plan: dict[str, Any]) -> None:
        self.plan = plan
        self.rng = random.Random(7)
        self.tokens: dict[str, str] = {}
        self.arrivals: dict[tuple[int, int], list[float]] = {}  # (board, n) -> times seen
        self.sent: list[tuple[int, int, float]] = []  # (board, last event n, time sent)
        self.counted: list[tuple[float, str]] = []  # (time, event type) from spectators
        self.measuring = False
        self.pending: set[asyncio.Task[None]] = set()  # moves being thought about or sent
        self.failed = 0  # moves refused or not answered
        self.answered: list[float] = []  # seconds from sending a move to its HTTP answer

    async def run(self) -> None:
        import httpx

        os.sched_setaffinity(0, {self.plan["cpu"]})
        bases = self.plan["bases"]
        # Idle connections are dropped before uvicorn's 5 s keep-alive ends: a request sent
        # on a connection the server is closing would fail for nothing.
        limits = httpx.Limits(max_connections=200, keepalive_expiry=2.0)
        async with httpx.AsyncClient(timeout=60, limits=limits) as http:
            self.http = http
            for i in range(USERS):
                answer = await http.post(f"http://{bases[0]}/api/session",
                                         json={"userid": f"p{i}", "password": PASSWORD})
                self.tokens[f"p{i}"] = answer.json()["token"]
            tasks = []
            for t in range(self.plan["tables"]):
                base = bases[t % len(bases)]
                people = [f"p{(2 * t) % USERS}", f"p{(2 * t + 1) % USERS}"]
                board = await self.seat(base, people)
                tasks.append(asyncio.create_task(self.watch(base, board, None)))
                tasks += [asyncio.create_task(self.watch(base, board, p)) for p in people]
            await asyncio.sleep(self.plan["warmup"])
            # The client's own garbage collections would stop it from reading the sockets
            # (seen: 4 full collections in a window, the longest 0.26 s) and count as the
            # server's delay: none from here until every timed move has been seen.
            gc.collect()
            gc.freeze()
            gc.disable()
            cpu0, wall0 = cpu_seconds(), time.monotonic()
            print("START", flush=True)
            self.measuring = True
            await asyncio.sleep(self.plan["seconds"])
            self.measuring = False
            cpu1, wall1 = cpu_seconds(), time.monotonic()
            print("END", flush=True)
            # The moves answered just before the end reach the clients a little later:
            # listen on (no new moves are timed), so that "not seen" means not seen.
            await asyncio.sleep(LATE)
            gc.enable()
            for task in [*tasks, *self.pending]:
                task.cancel()
        print(json.dumps(self.summary(wall1 - wall0, cpu1 - cpu0)), flush=True)

    async def seat(self, base: str, people: list[str]) -> int:
        first, second = people
        answer = await self.http.post(
            f"http://{base}/api/tables", headers=self.auth(first),
            json={"variant": "standard", "options": {},
                  "seats": [first, "bot:basic", second, "bot:basic"]})
        board: int = answer.json()["board"]
        await self.http.post(f"http://{base}/api/tables/{board}/join", json={},
                             headers=self.auth(second))
        return board

    def auth(self, userid: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[userid]}"}

    async def watch(self, base: str, board: int, userid: str | None) -> None:
        from websockets.asyncio.client import connect

        query = f"?token={self.tokens[userid]}" if userid else ""
        async with connect(f"ws://{base}/api/tables/{board}/live{query}",
                           max_size=2**24, ping_interval=None) as socket:
            moving = -1
            async for text in socket:
                now = time.monotonic()
                message = json.loads(text)
                if message["type"] == "event":
                    self.arrivals.setdefault((board, message["n"]), []).append(now)
                    kind = message["event"]["type"]
                    if userid is None and self.measuring and kind in (
                            "bid", "bid_changed", "trump", "card"):
                        self.counted.append((now, kind))
                    continue
                table = message["table"]
                view = table["view"]
                if (userid and table["status"] == "active" and view
                        and view["to_move"] == view["seat"] and view["legal_actions"]
                        and table["next_move"] != moving):
                    moving = table["next_move"]
                    self.pending.add(task := asyncio.create_task(
                        self.move(base, board, userid, table)))
                    task.add_done_callback(self.pending.discard)

    async def move(self, base: str, board: int, userid: str, table: dict[str, Any]) -> None:
        import httpx

        await asyncio.sleep(self.plan["think"] * self.rng.uniform(0.5, 1.5))
        action = self.rng.choice(table["view"]["legal_actions"])
        sent = time.monotonic()
        try:
            answer = await self.http.post(f"http://{base}/api/tables/{board}/moves",
                                          headers=self.auth(userid),
                                          json={"action": action, "expect": table["next_move"]})
        except (httpx.TransportError, RuntimeError):  # the run is ending or the server failed
            self.failed += 1
            return
        if answer.status_code == 200 and self.measuring:
            self.sent.append((board, answer.json()["event"], sent))
            self.answered.append(time.monotonic() - sent)
        elif answer.status_code != 200:
            self.failed += 1

    def summary(self, wall: float, cpu: float) -> dict[str, Any]:
        latencies, missing = [], 0
        for board, n, sent in self.sent:
            seen = self.arrivals.get((board, n), [])
            if len(seen) < 3:
                missing += 1
                continue
            latencies.append(max(seen) - sent)
        latencies.sort()

        def pct(p: float, values: list[float] = latencies) -> float:
            return 1000 * values[min(len(values) - 1, int(p * len(values)))] \
                if values else float("nan")

        answered = sorted(self.answered)

        return {"moves": len(self.counted), "moves_per_s": len(self.counted) / wall,
                "measured_moves": len(latencies), "missing": missing, "failed": self.failed,
                "p50_ms": pct(0.50), "p99_ms": pct(0.99),
                "answer_p50_ms": pct(0.50, answered), "answer_p99_ms": pct(0.99, answered),
                "client_cpu_share": cpu / wall / 2, "wall": wall}


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
