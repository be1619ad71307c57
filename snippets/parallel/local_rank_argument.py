"""A script declaring only --local_rank rejects the --local-rank=N that launch passes.

Run: python local_rank_argument.py
"""
import argparse


class Parser(argparse.ArgumentParser):
    def error(self, message):  # raise instead of printing usage and exiting
        raise ValueError(message)


# what torch.distributed.launch appends to the script's arguments since torch 2.0
argv = ["--local-rank=1"]

old = Parser()
old.add_argument("--local_rank", type=int)
try:
    old.parse_args(argv)
except ValueError as exc:
    print(f"--local_rank only: error: {exc}")

both = Parser()
both.add_argument("--local-rank", "--local_rank", type=int)
print(f"both spellings: local_rank={both.parse_args(argv).local_rank}")
