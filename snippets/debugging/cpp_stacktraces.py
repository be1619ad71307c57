"""TORCH_SHOW_CPP_STACKTRACES=1: the C++ stack of an error raised inside torch's C++ code.

Errors that torch's C++ code raises (a failed TORCH_CHECK, a c10::Error) reach Python as
RuntimeError, ValueError, IndexError... with the message only. With the variable set to
1, the message also names the C++ function and source line that raised it and lists the
C++ frames. torch reads the variable once: set it in the environment before the process
starts. The example runs the same failing matmul in two fresh processes, without and
with it, and prints what is stable across machines: the message's first line, the
location line without the build's path, and the first frames' function names.

Run: python cpp_stacktraces.py
Variants: cpu, cuda
"""
import os
import re
import subprocess
import sys

FAILING = """
import os

import torch

device = os.environ.get("DEVICE", "cpu")  # DEVICE=cuda on a GPU
try:
    torch.ones(2, 3, device=device) @ torch.ones(2, 3, device=device)
except RuntimeError as error:
    print(error)
"""

for value in ("0", "1"):
    env = dict(os.environ, TORCH_SHOW_CPP_STACKTRACES=value)
    message = subprocess.run([sys.executable, "-c", FAILING], env=env, text=True,
                             capture_output=True, check=True).stdout
    lines = message.splitlines()
    print(f"TORCH_SHOW_CPP_STACKTRACES={value}:")
    print(f"  first line: {lines[0]}")
    for line in lines:
        if line.startswith("Exception raised from"):
            # the build machine's path: from the source tree on
            print("  " + re.sub(r" at \S*?/(aten|c10|torch)/", r" at \1/", line))
    frames = [line for line in lines if re.match(r"#\d+ ", line)]
    print(f"  C++ frames listed: {'C++ CapturedTraceback:' in lines}")
    if frames:
        # a frame: "#4 c10::Error::Error(...) from /path/libc10.so:708924", ?? if unnamed
        names = [re.match(r"#\d+ (.*?)(\(.*)? from ", line).group(1) for line in frames]
        print("  first named frames:", [name for name in names if name != "??"][:4])
