"""A rank script that prints every TCP address the harness's processes listen on: its server
(the rank's parent) and everything the server started (the run's store, every rank and what
they opened), read from ``/proc`` while the run's process group is up."""

LISTENING_SCRIPT = '''\
import os
import socket
from pathlib import Path

import torch.distributed as dist


def descendants(root):
    children = {}
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError):
                continue
            children.setdefault(parent, []).append(int(proc.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def socket_inodes(pids):
    inodes = set()
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[len("socket:["):-1])
        except OSError:
            pass
    return inodes


def address(field):
    ip, port = field.split(":")
    raw = bytes.fromhex(ip)  # 32-bit words in the kernel's (little-endian) order
    raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
    family = socket.AF_INET if len(raw) == 4 else socket.AF_INET6
    return f"{socket.inet_ntop(family, raw)}:{int(port, 16)}"


def listening(inodes):
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                found.append(address(fields[1]))
    return sorted(found)


dist.init_process_group("gloo")
if dist.get_rank() == 0:
    print(" ".join(listening(socket_inodes(descendants(os.getppid())))))
dist.barrier()
dist.destroy_process_group()
'''


def off_loopback(addresses: list[str]) -> list[str]:
    """The addresses that are not on the loopback interface."""
    return [a for a in addresses if not a.startswith(("127.", "::1:", "::ffff:127."))]
