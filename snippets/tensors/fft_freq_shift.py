"""torch.fft.fftfreq / rfftfreq (the frequency of each bin) and fftshift / ifftshift.

Run: python fft_freq_shift.py
"""
import math

import torch

print("fftfreq(8):", torch.fft.fftfreq(8))  # cycles per sample; negatives in the second half
print("rfftfreq(8):", torch.fft.rfftfreq(8))  # the bins rfft returns
print("fftfreq(8, d=0.5):", torch.fft.fftfreq(8, d=0.5))  # d: the sample spacing

rate = 16  # samples per second
t = torch.arange(rate) / rate
signal = torch.sin(2 * math.pi * 3 * t)  # 3 Hz
spectrum = torch.fft.rfft(signal).abs()
freqs = torch.fft.rfftfreq(rate, d=1 / rate)
print("strongest frequency (Hz):", freqs[spectrum.argmax()].item())

f = torch.fft.fftfreq(8)
print("fftshift:", torch.fft.fftshift(f))  # zero frequency in the middle
print("ifftshift undoes it:", torch.fft.ifftshift(torch.fft.fftshift(f)))
odd = torch.arange(5)
print("odd length: fftshift", torch.fft.fftshift(odd), "ifftshift", torch.fft.ifftshift(odd))
grid = torch.arange(16).reshape(4, 4)
print(f"fftshift of a 2-D grid (all dims):\n{torch.fft.fftshift(grid)}")
