"""Asking torchrun's workers for their stacks: send SIGUSR1 to the workers, not to torchrun.

Each worker registers faulthandler for SIGUSR1 and then hangs. Sent to the workers (the
children of torchrun, the processes `pkill -USR1 -P <pid of torchrun>` signals), SIGUSR1
makes each write its stack, and the job goes on. Sent to torchrun itself, as
`pkill -USR1 -f train.py` also does (the pattern matches torchrun's command line too), it
kills torchrun: torchrun handles SIGTERM, SIGINT, SIGHUP and SIGQUIT, not SIGUSR1. Its
workers run in sessions of their own and keep running without it. The example launches
torchrun on a small script in a temporary directory.

Run: python torchrun_sigusr1.py
Timeout: 120
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

TRAIN = """
import faulthandler
import os
import signal
import time

rank = os.environ["RANK"]
stacks = open(f"stack_{rank}.txt", "w")
faulthandler.register(signal.SIGUSR1, file=stacks)  # before anything can send it
with open(f"pid_{rank}.tmp", "w") as file:
    file.write(str(os.getpid()))
os.rename(f"pid_{rank}.tmp", f"pid_{rank}.txt")  # ready
time.sleep(100)  # stands for a step that hangs
"""


def children(pid):
    """The processes whose parent is `pid`, as `pkill -P pid` finds them (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as file:
                fields = file.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # not a process, or gone
        if int(fields[1]) == pid:
            found.append(int(entry))
    return sorted(found)


def wait_for(condition, seconds=60):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the workers did not get ready")
        time.sleep(0.1)


def running(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, "train.py"), "w") as file:
        file.write(TRAIN)
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone",
               "--nproc-per-node=2", "--log-dir", os.path.join(tmp, "logs"),
               "--redirects", "3", "train.py"]  # workers' own output: to the log dir
    # OMP_NUM_THREADS set: torchrun would set it to 1 and print a warning about it
    env = dict(os.environ, OMP_NUM_THREADS="1")
    launcher = subprocess.Popen(command, cwd=tmp, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = []
    try:
        paths = [os.path.join(tmp, f"pid_{rank}.txt") for rank in range(2)]
        wait_for(lambda: all(os.path.exists(path) for path in paths))
        for path in paths:
            with open(path) as file:
                workers.append(int(file.read()))

        # 1. To the workers only: what `pkill -USR1 -P <pid of torchrun>` does
        print("torchrun's children are its workers:", children(launcher.pid) == sorted(workers))
        for pid in children(launcher.pid):
            os.kill(pid, signal.SIGUSR1)
        stacks = [os.path.join(tmp, f"stack_{rank}.txt") for rank in range(2)]
        wait_for(lambda: all(os.path.getsize(path) > 0 for path in stacks))
        for rank, path in enumerate(stacks):
            with open(path) as file:
                where = [line.strip() for line in file if "File" in line]
            print(f"rank {rank} wrote its stack: {where[0].replace(tmp, '<tmp>')}")
        print("torchrun still running:", launcher.poll() is None)

        # 2. To torchrun as well, as `pkill -USR1 -f train.py` would
        os.kill(launcher.pid, signal.SIGUSR1)
        code = launcher.wait(timeout=30)
        print(f"torchrun ended with exit code {code} ({signal.Signals(-code).name})")
        print("its workers still running:", [running(pid) for pid in workers])
    finally:
        for pid in workers:  # end the orphans, which nothing else would stop
            if running(pid):
                os.kill(pid, signal.SIGKILL)
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()
