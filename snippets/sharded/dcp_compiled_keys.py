"""State-dict keys of compiled blocks: torch.compile(block) adds _orig_mod. to state_dict(),
block.compile() does not, and DCP's get_model_state_dict drops the compiler's prefix (not the
name of a wrapper of your own).

Run: python dcp_compiled_keys.py
"""
import torch
from torch import nn
from torch.distributed.checkpoint.state_dict import (
    get_model_state_dict,
    get_optimizer_state_dict,
    set_model_state_dict,
)
from torch.utils.checkpoint import checkpoint


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(8, 16)
        self.down = nn.Linear(16, 8)

    def forward(self, x):
        return x + self.down(torch.relu(self.up(x)))


class Checkpointed(nn.Module):
    """Runs its block under activation checkpointing: recomputed in backward, not kept."""

    def __init__(self, block):
        super().__init__()
        self.block = block

    def forward(self, x):
        return checkpoint(self.block, x, use_reentrant=False)


torch.manual_seed(0)
wrapped = nn.Sequential(torch.compile(Block()))  # an OptimizedModule around the block
in_place = nn.Sequential(Block())
in_place[0].compile()  # the same module, compiled at its first call
checkpointed = nn.Sequential(Checkpointed(Block()))
# Nothing is called: compiling happens at the first call, the keys are there before.
for name, model in [("torch.compile(block)", wrapped), ("block.compile()", in_place),
                    ("Checkpointed(block)", checkpointed)]:
    print(f"{name}: {type(model[0]).__name__}, state_dict() {next(iter(model.state_dict()))},"
          f" get_model_state_dict {next(iter(get_model_state_dict(model)))}")

optimizer = torch.optim.SGD(wrapped.parameters(), lr=0.1)
params = get_optimizer_state_dict(wrapped, optimizer)["param_groups"][0]["params"]
print("get_optimizer_state_dict names the parameters:", params[:2])

# A checkpoint written from the wrapped model loads into a model that was never compiled.
plain = nn.Sequential(Block())
print("set_model_state_dict:", set_model_state_dict(plain, get_model_state_dict(wrapped)))
print("weights equal:", torch.equal(plain[0].up.weight, wrapped[0].up.weight))
try:
    plain.load_state_dict(wrapped.state_dict())
except RuntimeError as error:
    first, second = str(error).splitlines()[:2]
    print(f"load_state_dict(state_dict()): RuntimeError: {first} {second.split(':')[0].strip()}")
