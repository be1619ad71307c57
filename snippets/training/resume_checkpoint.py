"""Resume training exactly: 6 steps straight give the same losses as 3 steps, a checkpoint
(model, optimizer, scheduler, step and the random states), a fresh start and 3 more steps.

Run: python resume_checkpoint.py
"""
import importlib
import os
import random
import tempfile

import numpy as np
import torch
from torch import nn


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def build():
    model = nn.Linear(4, 1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=0.1)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    return model, optimizer, scheduler


def train(model, optimizer, scheduler, steps):
    losses = []
    for _ in steps:
        x = torch.randn(8, 4)  # the batch: torch's generator
        if random.random() < 0.5:  # an augmentation: Python's generator
            x = x.flip(1)
        noise = np.random.normal(0.0, 0.1, size=(8, 1))  # label noise: NumPy's generator
        y = x.sum(dim=1, keepdim=True) + torch.from_numpy(noise).float()
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
        losses.append(loss.item())
    return losses


def rng_states():
    name, keys, pos, has_gauss, gauss = np.random.get_state()
    return {"torch": torch.get_rng_state(),  # a uint8 tensor
            "python": random.getstate(),  # a tuple of ints
            # NumPy's keys as a list of ints: weights_only=True refuses an ndarray
            "numpy": (name, keys.tolist(), pos, has_gauss, gauss)}


def set_rng_states(states):
    torch.set_rng_state(states["torch"])
    random.setstate(states["python"])
    name, keys, pos, has_gauss, gauss = states["numpy"]
    np.random.set_state((name, np.array(keys, dtype=np.uint32), pos, has_gauss, gauss))


# Reference: 6 steps without stopping
seed_everything(0)
straight = train(*build(), range(6))
print("straight:", [round(loss, 4) for loss in straight])

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "checkpoint.pt")

    # Run 1: 3 steps, then a checkpoint with everything that changes while training
    seed_everything(0)
    model, optimizer, scheduler = build()
    first = train(model, optimizer, scheduler, range(3))
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(), "step": 3, "rng": rng_states()}, path)
    del model, optimizer, scheduler

    # Run 2: a new start (another seed: the checkpoint overrides it), load, 3 more steps
    def resume(restore_rng):
        seed_everything(1234)
        model, optimizer, scheduler = build()
        checkpoint = torch.load(path, weights_only=True)  # plain types and tensors only
        model.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        scheduler.load_state_dict(checkpoint["scheduler"])
        if restore_rng:
            set_rng_states(checkpoint["rng"])
        return train(model, optimizer, scheduler, range(checkpoint["step"], 6))

    second = resume(restore_rng=True)
    print("resumed: ", [round(loss, 4) for loss in first], "+",
          [round(loss, 4) for loss in second])
    print("equal:", first + second == straight)  # exactly, not approximately
    print("equal without the random states:", first + resume(restore_rng=False) == straight)

    # The raw NumPy state holds an ndarray: weights_only=True refuses it
    raw = os.path.join(tmp, "numpy_state.pt")
    torch.save(np.random.get_state(), raw)
    needs = sorted(torch.serialization.get_unsafe_globals_in_checkpoint(raw))
    print("raw NumPy state needs:", needs)
    # allowing exactly those is not enough: loading meets one more class
    listed = [getattr(importlib.import_module(name.rpartition(".")[0]), name.rpartition(".")[2])
              for name in needs]
    try:
        with torch.serialization.safe_globals(listed):
            torch.load(raw, weights_only=True)
    except Exception as error:  # pickle.UnpicklingError
        print(type(error).__name__, "| but got", str(error).split("but got ")[1].splitlines()[0])
