"""One run inside the server: its rendezvous store, its ranks, and the watch over them.

The watch waits on a pidfd per rank. The first failure gives the others
:data:`FAILURE_GRACE_S` to end on their own; a timeout dumps the stacks of the ranks still
running (``SIGUSR1``) before killing them. Every rank's whole session is killed when it is reaped.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import time

from ranktest import _procs as procs
from ranktest import _protocol as protocol
from ranktest._rank import failure_file, run_rank

#: After the first rank fails, the others get this long to end on their own.
FAILURE_GRACE_S = 0.5
#: How long a rank gets to write its stacks after SIGUSR1, before SIGKILL.
STACK_DUMP_S = 0.3


def read_pipe(fd: int) -> bytes:
    """Everything written to the pipe ``fd`` until its writer closes it; closes ``fd``."""
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


def loopback_listener() -> socket.socket:
    """A TCP socket listening on a free port of 127.0.0.1, and on nothing else."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(socket.SOMAXCONN)
    return sock


#: Whether this server's torch hands the store a listening socket; set to False by the first
#: store that could not take one, so that the next ones (forked from the server) do not try
#: again, and torch logs its refusal once per server.
_store_takes_socket = True


def _store(write_fd: int, wait_fd: int, env: dict[str, str]) -> int:
    """Host a fresh TCPStore on a free loopback port until the server closes ``wait_fd``.

    The store is handed a socket already listening on 127.0.0.1 (``master_listen_fd``): given a
    host name alone, torch's store server listens on every interface (``*:PORT``, dual-stack), so
    any host that reaches the machine could read and write the run's keys. Where torch cannot
    take the socket (2.0 has no ``master_listen_fd``; the libuv store of 2.4.1 refuses one, and
    the legacy store it offers instead would change the store the runs are measured with), the
    store listens on every interface, as before.
    """
    from torch.distributed import TCPStore

    os.environ.update(env)  # RES_OPTIONS and the like, before the store's first lookup
    store, refused = None, False
    if _store_takes_socket and "master_listen_fd" in (TCPStore.__init__.__doc__ or ""):  # 2.0 has none
        listener = loopback_listener()
        # The store owns the descriptor from here on; the socket object must not close it
        # while the store's thread still polls it.
        port, fd = listener.getsockname()[1], listener.detach()
        try:
            store = TCPStore("127.0.0.1", port, is_master=True, wait_for_workers=False, master_listen_fd=fd)
        except NotImplementedError:  # a libuv store that takes no listening socket (2.4.1 measured)
            os.close(fd)
            refused = True
    if store is None:  # every interface, as torch binds it
        store = TCPStore("127.0.0.1", 0, is_master=True, wait_for_workers=False)
    os.write(write_fd, f"{store.port}{' refused' if refused else ''}".encode())
    os.close(write_fd)
    os.read(wait_fd, 1)  # returns when the server closes its end or dies
    return 0


def _failure_time(outdir: str, rank: int, died_after: float) -> float:
    """When ``rank`` failed, on the clock all processes share (CLOCK_MONOTONIC).

    A rank whose script failed wrote the time itself: a peer that fails because this rank is
    gone (a collective's "Connection closed by peer") fails later, even if the watch sees both
    exits at once. A rank that died without a word (a signal, ``os._exit``) counts as dead at
    ``died_after``, the watch's previous wake-up, so it comes before the errors it causes in
    its peers (or at the wake-up before the one that first saw it on its way out: a killed
    process can close its sockets, and so fail a peer, before its own exit is reported); a
    crash caused by a peer's error in the same wake-up would be misordered.
    """
    try:
        return float(failure_file(outdir, rank).read_text())
    except (FileNotFoundError, ValueError):
        return died_after


def _reap(pid: int) -> int:
    """Kill what is left of the rank's session, reap the rank, return its exit status."""
    try:
        os.killpg(pid, signal.SIGKILL)  # descendants; the zombie keeps the group id reserved
    except (ProcessLookupError, PermissionError):
        pass
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


class Run:
    """One request: the store, the ranks, and the watch over them."""

    def __init__(self, req: protocol.RunRequest, protocol_fds: list[int]):
        self.req = req
        self.store_pid = self.store_release = None
        port = self._start_store() if req.distributed else None
        self.pids = [procs.fork(lambda r=r: run_rank(req, r, port, protocol_fds))
                     for r in range(req.world_size)]
        self.pidfds = {os.pidfd_open(pid): rank for rank, pid in enumerate(self.pids)}
        self.status: dict[int, int] = {}
        self.stopped: set[int] = set()

    def _start_store(self) -> int:
        port_r, port_w = os.pipe()
        wait_r, wait_w = os.pipe()
        self.store_pid = procs.fork(lambda: _store(port_w, wait_r, self.req.env))
        os.close(port_w)
        os.close(wait_r)
        self.store_release = wait_w
        global _store_takes_socket
        port, _, refused = read_pipe(port_r).decode().partition(" ")
        if refused:
            _store_takes_socket = False
        return int(port)

    def watch(self, control_fd: int) -> protocol.Done:
        """Wait for every rank; return the reply describing how each ended."""
        start = seen = time.monotonic()  # seen: when the watch last woke
        deadline = start + self.req.timeout
        failed_at: dict[int, float] = {}
        ending_since: dict[int, float] = {}  # ranks seen on their way out, before their exit event
        timed_out = False
        poller = select.poll()
        for fd in self.pidfds:
            poller.register(fd, select.POLLIN)
        poller.register(control_fd, select.POLLIN | select.POLLHUP)
        while len(self.status) < len(self.pids):
            events = poller.poll(max(0.0, deadline - time.monotonic()) * 1000)
            woke = time.monotonic()
            for rank, pid in enumerate(self.pids):
                # A rank killed by a signal can still be tearing down (its pidfd not readable
                # yet) when a peer's "Connection closed by peer" error has already ended that peer.
                if rank not in self.status and rank not in ending_since and procs.exiting(pid):
                    ending_since[rank] = seen
            for fd, _ in events:
                if fd == control_fd:  # the client went away: stop everything
                    self.kill_all()
                    os._exit(0)
                rank = self.pidfds[fd]
                poller.unregister(fd)
                self.status[rank] = _reap(self.pids[rank])
                if self.status[rank] != 0:
                    if not failed_at:
                        deadline = min(deadline, woke + FAILURE_GRACE_S)
                    failed_at[rank] = _failure_time(self.req.outdir, rank,
                                                    died_after=ending_since.get(rank, seen))
            seen = woke
            if time.monotonic() >= deadline and len(self.status) < len(self.pids):
                timed_out = not failed_at
                self.stop_running()
        self.close()
        first_failure = min(failed_at, key=lambda r: (failed_at[r], r)) if failed_at else None
        return protocol.Done(
            ranks=[protocol.RankEnd(r, self.status[r], r in self.stopped) for r in range(len(self.pids))],
            first_failure=first_failure, timed_out=timed_out, elapsed=time.monotonic() - start)

    def stop_running(self) -> None:
        """Dump the stacks of ranks still running, then kill them."""
        running = [r for r in range(len(self.pids)) if r not in self.status]
        for rank in running:
            self.stopped.add(rank)
            procs.send(self.pids[rank], signal.SIGUSR1)
        time.sleep(STACK_DUMP_S)
        for rank in running:
            self.status[rank] = _reap(self.pids[rank])

    def kill_all(self) -> None:
        for rank, pid in enumerate(self.pids):
            if rank not in self.status:
                _reap(pid)
        self.close()

    def close(self) -> None:
        for fd in self.pidfds:
            os.close(fd)
        self.pidfds = {}
        if self.store_pid is not None:
            os.close(self.store_release)
            os.kill(self.store_pid, signal.SIGKILL)
            os.waitpid(self.store_pid, 0)
            self.store_pid = None
