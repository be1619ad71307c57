"""Print a greeting.

Run: python single.py
Variants: cpu, cuda
"""
import os

print(f"hello from {os.environ.get('DEVICE', 'cpu')}")
