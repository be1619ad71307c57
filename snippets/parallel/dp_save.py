"""Save a DataParallel model through model.module, so the checkpoint loads into the plain model.

Run: python dp_save.py
"""
import io
import os

os.environ["CUDA_VISIBLE_DEVICES"] = ""  # run on the CPU; the keys are the same on GPUs

import torch
from torch import nn

torch.manual_seed(0)
model = nn.DataParallel(nn.Linear(3, 2))
print("model.state_dict():       ", list(model.state_dict()))
print("model.module.state_dict():", list(model.module.state_dict()))

buffer = io.BytesIO()  # stands for a file such as "checkpoint.pt"
torch.save(model.module.state_dict(), buffer)

buffer.seek(0)
plain = nn.Linear(3, 2)  # later, without DataParallel
print(plain.load_state_dict(torch.load(buffer)))
print("weights restored:", torch.equal(plain.weight, model.module.weight))
