"""Sharing strategies: how a CPU tensor sent to another process is shared, not copied.

A tensor put on a torch.multiprocessing queue moves its storage into shared memory; the
receiving process maps the same memory, so an in-place change there is seen by the sender.
The strategy decides how the memory is handed over: "file_descriptor" (the Linux default)
passes an open file descriptor, "file_system" a file name in shared memory (for when the
open-descriptor limit is too low, at the risk of leaking the file if a process dies).

Run: python mp_sharing.py
Variants: cpu
Timeout: 120
"""
import torch
import torch.multiprocessing as mp


def add_one(i, queue, done):
    tensor = queue.get()
    tensor.add_(1)  # in place, in the shared memory
    done.put(mp.get_sharing_strategy())  # a spawned child starts with the default


def main():
    print("available:", sorted(mp.get_all_sharing_strategies()))
    print("default:", mp.get_sharing_strategy())
    for strategy in sorted(mp.get_all_sharing_strategies()):
        mp.set_sharing_strategy(strategy)  # in the sender, before the tensor is sent
        ctx = mp.get_context("spawn")
        queue, done = ctx.SimpleQueue(), ctx.SimpleQueue()  # no feeder thread, unlike Queue
        tensor = torch.zeros(3)
        context = mp.start_processes(add_one, args=(queue, done), nprocs=1, join=False,
                                     start_method="spawn")
        queue.put(tensor)
        child_strategy = done.get()
        context.join()
        print(f"{strategy}: is_shared() {tensor.is_shared()}, after the child's add_(1): "
              f"{tensor.tolist()}; the child's own strategy: {child_strategy}")


if __name__ == "__main__":  # required for "spawn": its children import this file
    main()  # the queues are freed when it returns, before the interpreter exits
