"""Each rank prints its own line.

Run: torchrun --nproc-per-node=2 pair.py
Variants: gloo-cpu, nccl-cuda
"""
import os

print(f"rank {os.environ['RANK']} of {os.environ['WORLD_SIZE']} says hello")
