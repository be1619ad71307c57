"""Load a checkpoint saved from a DataParallel model (keys start with "module.") into a plain
model, and the reverse.

Run: python dp_load.py
"""
import os

os.environ["CUDA_VISIBLE_DEVICES"] = ""  # run on the CPU; the keys are the same on GPUs

import torch
from torch import nn
from torch.nn.modules.utils import consume_prefix_in_state_dict_if_present

torch.manual_seed(0)
checkpoint = nn.DataParallel(nn.Linear(3, 2)).state_dict()  # saved without .module
print("checkpoint keys:", list(checkpoint))

torch.manual_seed(1)
model = nn.Linear(3, 2)

# 1. Strict loading (the default) refuses prefixed keys; strict=False loads nothing, silently.
try:
    model.load_state_dict(checkpoint)
except RuntimeError as exc:
    for line in str(exc).splitlines()[1:]:
        print("load_state_dict:", line.strip())
print("strict=False:", model.load_state_dict(checkpoint, strict=False))

# 2. The usual "partial loading" idiom keeps only matching keys: none match, nothing loads.
model_dict = model.state_dict()
model_dict.update({k: v for k, v in checkpoint.items() if k in model_dict})
print("naive update:", model.load_state_dict(model_dict))
print("  weights loaded:", torch.equal(model.weight, checkpoint["module.weight"]))

# 3. Fix: strip the prefix (in place, on a copy), then load strictly.
state = dict(checkpoint)
consume_prefix_in_state_dict_if_present(state, "module.")
print("stripped keys:", list(state))
print("fixed:", model.load_state_dict(state))
print("  weights loaded:", torch.equal(model.weight, checkpoint["module.weight"]))

# Reverse: a plain checkpoint into a DataParallel model.
plain_checkpoint = model.state_dict()
torch.manual_seed(2)
dp_model = nn.DataParallel(nn.Linear(3, 2))
print("into model.module:", dp_model.module.load_state_dict(plain_checkpoint))
prefixed = {"module." + k: v for k, v in plain_checkpoint.items()}
print("or with the prefix added:", dp_model.load_state_dict(prefixed))
