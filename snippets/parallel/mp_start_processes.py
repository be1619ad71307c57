"""torch.multiprocessing.start_processes: spawn or fork, and spawn(join=False).

start_processes(fn, args, nprocs, start_method=...) calls fn(i, *args) in nprocs new
processes, as spawn() does, with the start method of your choice. A "spawn" child is a
fresh interpreter that imports this file again (as __mp_main__, so the code under the
__main__ guard does not run there); a "fork" child is a copy of the parent as it is at
that moment. With join=False both return a ProcessContext at once, and its join() waits.

Run: python mp_start_processes.py
Variants: cpu
Timeout: 120
"""
import torch.multiprocessing as mp

SETTING = "as imported"  # the parent changes it before starting the children


def report(i, results):
    results.put((i, SETTING))


def collect(results, n):
    return sorted(results.get() for _ in range(n))


def main():
    global SETTING
    SETTING = "changed by the parent"
    for method in ("spawn", "fork"):
        results = mp.get_context(method).SimpleQueue()  # from the same start method
        mp.start_processes(report, args=(results,), nprocs=2, start_method=method)  # waits
        print(f"start_method={method!r}: each child's SETTING: {collect(results, 2)}")

    results = mp.get_context("spawn").SimpleQueue()
    context = mp.spawn(report, args=(results,), nprocs=2, join=False)  # returns at once
    print(f"spawn(join=False) returned a {type(context).__name__} of {len(context.pids())} "
          "processes")
    print(f"children's results: {collect(results, 2)}")
    while not context.join():  # True once every process has exited (with code 0)
        pass
    print("join() returned True; exit codes:", [p.exitcode for p in context.processes])
    # Leaving main() frees the queues; a multiprocessing lock still alive at exit is
    # reported by Python's resource tracker as a leaked semaphore (a warning on stderr).


if __name__ == "__main__":  # required for "spawn": its children import this file
    main()
