"""Measure how often a DDP script aborts at exit, by how it tears down (not run by ``make test``).

    .venv/bin/python -m refsite.commands.exit_abort --runs 40 --jobs 4

Runs four versions of ``snippets/parallel/ddp_step.py`` (gloo, 2 ranks) under ``torchrun``,
``--runs`` times each, ``--jobs`` launches at a time, interleaved so that every version sees
the same load:

``destroy_only``
    no ``import torch.distributed.nn`` before ``init_process_group``, no ``del``, no barrier;
``del_destroy``
    ``del model, optimizer``, then ``destroy_process_group()``;
``del_barrier_destroy``
    ``del``, ``dist.barrier()``, then ``destroy_process_group()``;
``all_four``
    the snippet as published (early import, ``del``, barrier, destroy).

A launch counts as aborted when ``torchrun`` exits non-zero although the script printed all of
its output (so it failed at exit). The result goes to ``docs/measurements/ddp_exit_abort.json``
with its provenance (command, torch version, machine, date), for the pages to quote with the
``{measured}`` role. The file is written only by this command; never edit it by hand.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from refsite import project
from refsite.measurements import provenance

REPO = project.root()
SNIPPET = REPO / "snippets" / "parallel" / "ddp_step.py"
OUT = REPO / "docs" / "measurements" / "ddp_exit_abort.json"

EARLY_IMPORT = re.compile(r"^# Before init_process_group.*\n(?:#.*\n)*import torch\.distributed\.nn.*\n",
                          re.MULTILINE)
DEL = re.compile(r"^del model, optimizer.*\n", re.MULTILINE)
BARRIER = re.compile(r"^dist\.barrier\(\).*\n", re.MULTILINE)

#: name -> (what it is, the patterns removed from the snippet)
VERSIONS = {
    "destroy_only": ("destroy_process_group() only", (EARLY_IMPORT, DEL, BARRIER)),
    "del_destroy": ("del model, then destroy", (EARLY_IMPORT, BARRIER)),
    "del_barrier_destroy": ("del model, barrier(), destroy", (EARLY_IMPORT,)),
    "all_four": ("all four steps", ()),
}


def version_source(removed: tuple[re.Pattern, ...]) -> str:
    source = SNIPPET.read_text(encoding="utf-8")
    for pattern in removed:
        source, n = pattern.subn("", source, count=1)
        if n != 1:
            raise SystemExit(f"{SNIPPET.name} changed: {pattern.pattern!r} not found")
    return source


def launch(script: Path) -> tuple[int, str, str]:
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2",
         script.name], cwd=script.parent, env=env, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


def abort_message(stderr: str) -> str | None:
    match = re.search(r"terminate called[^\n]*", stderr)
    return match.group(0).strip() if match else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40, help="launches per version")
    parser.add_argument("--jobs", type=int, default=4, help="launches at a time")
    args = parser.parse_args()

    import torch

    # the load before the launches start (they add to it)
    made = provenance.current("python -m refsite.commands.exit_abort " + shlex.join(sys.argv[1:]),
                              torch.__version__, load_at="the start")
    started = datetime.datetime.now(datetime.timezone.utc)
    results = {name: {"what": what, "runs": 0, "aborted": 0, "other_failures": 0}
               for name, (what, _removed) in VERSIONS.items()}
    messages: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        scripts = {}
        for name, (_what, removed) in VERSIONS.items():
            scripts[name] = Path(tmp, name, "ddp_step.py")
            scripts[name].parent.mkdir()
            scripts[name].write_text(version_source(removed), encoding="utf-8")
        order = [name for _ in range(args.runs) for name in VERSIONS]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = {pool.submit(launch, scripts[name]): name for name in order}
            for future in concurrent.futures.as_completed(futures):
                name = futures[future]
                code, stdout, stderr = future.result()
                entry = results[name]
                entry["runs"] += 1
                finished = stdout.count("weight after the step") == 2
                if code != 0 and finished:
                    entry["aborted"] += 1
                    message = abort_message(stderr)
                    if message:
                        messages[message] = messages.get(message, 0) + 1
                elif code != 0:
                    entry["other_failures"] += 1
                done = sum(r["runs"] for r in results.values())
                print(f"{done}/{len(order)} {name}: exit {code}", flush=True)
    for entry in results.values():
        entry["text"] = f"{entry['aborted']} of {entry['runs']} launches"
    body = {"started": started.isoformat(timespec="seconds"), "jobs": args.jobs, "results": results,
            "abort_messages": messages}
    if messages:
        body["abort_message"] = max(messages, key=messages.get)
    what = ("launches of parallel/ddp_step.py (gloo, 2 ranks, torchrun) that aborted at exit after "
            "printing all their output, by teardown")
    provenance.write_measurement(OUT, made, body, head={"what": what})
    print(f"wrote {OUT.relative_to(REPO)}")
    for name, entry in results.items():
        print(f"{name}: {entry['text']} ({entry['other_failures']} other failures)")


if __name__ == "__main__":
    main()
