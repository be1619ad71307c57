"""What a TCPStore server listens on, and how to keep a one-machine job on loopback only.

Run: python store_listen.py
"""
import socket

import torch.distributed as dist


def listening_on(port):
    # The local addresses with a socket listening on port (Linux: /proc/net/tcp, tcp6).
    found = []
    for table, family in (("tcp", socket.AF_INET), ("tcp6", socket.AF_INET6)):
        with open(f"/proc/net/{table}") as rows:
            next(rows)  # the header
            for row in rows:
                local, state = row.split()[1], row.split()[3]
                address, hex_port = local.split(":")
                if state == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
                    raw = bytes.fromhex(address)  # each 32-bit word in host order
                    raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
                    found.append(socket.inet_ntop(family, raw))
    return found


# The default: whatever host name it is given, the server listens on every interface.
store = dist.TCPStore("127.0.0.1", 0, is_master=True, wait_for_workers=False)
print("TCPStore('127.0.0.1', ...) listens on:", listening_on(store.port))
del store

# Loopback only: bind a socket to 127.0.0.1 yourself and hand it to the store.
listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.bind(("127.0.0.1", 0))
listener.listen()
port = listener.getsockname()[1]
store = dist.TCPStore("127.0.0.1", port, is_master=True, wait_for_workers=False,
                      master_listen_fd=listener.detach())  # the store owns the socket now
print("with master_listen_fd:", listening_on(port))

# init_process_group takes that store instead of a MASTER_ADDR:MASTER_PORT it would open itself.
dist.init_process_group("gloo", store=store, rank=0, world_size=1)
print("group:", dist.get_backend(), "world size", dist.get_world_size())
dist.destroy_process_group()
