"""torch.load(map_location=...): a device, a dict of locations or a function decides where the
loaded tensors go.

Run: python map_location.py
"""
import io

import torch

buffer = io.BytesIO()
torch.save({"weight": torch.ones(2, 3), "step": 7}, buffer)


def load(map_location):
    buffer.seek(0)
    return torch.load(buffer, map_location=map_location)


# The meta device stands in for a GPU here: a shape, no data
print("string:", load("meta")["weight"])
print("torch.device:", load(torch.device("meta"))["weight"].device)
# A dict maps saved locations to new ones; the others stay as saved
print("dict, matching:", load({"cpu": "meta"})["weight"].device)
print("dict, no match:", load({"cuda:1": "cuda:0"})["weight"].device)

tags = []


def keep_on_cpu(storage, location):  # called once per storage
    tags.append(location)            # where it was saved from
    return storage                   # or a copy moved elsewhere


print("function:", load(keep_on_cpu)["weight"].device, "saved at:", tags)
print("plain values stay:", load("meta")["step"])
