"""torch.inference_mode, is_inference_mode_enabled: no_grad, stricter and cheaper; its results
are inference tensors.

Run: python inference_mode.py
"""
import torch

torch.manual_seed(0)
layer = torch.nn.Linear(3, 1)
x = torch.ones(1, 3)

with torch.inference_mode():
    out = layer(x)
    print("inside:", torch.is_inference_mode_enabled(), "grad:", torch.is_grad_enabled())
    with torch.inference_mode(False):  # switched off again inside
        print("inference_mode(False):", torch.is_inference_mode_enabled())
print("outside:", torch.is_inference_mode_enabled())
print("out:", out.requires_grad, "is_inference:", out.is_inference())

with torch.no_grad():
    plain = layer(x)
print("no_grad result is_inference:", plain.is_inference())

# An inference tensor cannot be saved for backward later ...
try:
    (layer.weight * out).sum().backward()
except RuntimeError as error:
    print(f"RuntimeError: {str(error).split('.')[0]}")
# ... nor be changed in place outside inference mode
try:
    out.add_(1)
except RuntimeError as error:
    print(f"RuntimeError: {str(error).split('.')[0]}")
# A clone made outside inference mode is an ordinary tensor
copy = out.clone()
(layer.weight * copy).sum().backward()
print("clone:", copy.is_inference(), "weight.grad:", layer.weight.grad)

# Neither mode switches the model to eval: dropout still drops
dropout = torch.nn.Dropout(0.5)
with torch.inference_mode():
    print("training:", dropout.training, dropout(torch.ones(6)))
    dropout.eval()
    print("after eval():", dropout(torch.ones(6)))
