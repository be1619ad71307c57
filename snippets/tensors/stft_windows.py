"""The window functions, and torch.stft / torch.istft: the spectrogram of a tone that changes
half way, and the inverse that gives the signal back.

Run: python stft_windows.py
"""
import math
import warnings

import torch


def r(t):
    return t.round(decimals=4) + 0.0  # rounded; + 0.0 turns -0.0 into 0.0


print("hann:", r(torch.hann_window(8)))  # periodic=True, the default: for spectra
print("hann periodic=False:", r(torch.hann_window(8, periodic=False)))  # symmetric: for filters
print("hamming:", r(torch.hamming_window(8)))
print("blackman:", r(torch.blackman_window(8)))
print("bartlett:", r(torch.bartlett_window(8)))
print("kaiser beta=8:", r(torch.kaiser_window(8, True, 8.0)))  # beta=12.0 by default
try:
    torch.kaiser_window(8, beta=8.0)  # beta only together with periodic
except TypeError as error:
    print("TypeError:", str(error).splitlines()[0])
print("dtype:", torch.hann_window(8).dtype, torch.hann_window(8, dtype=torch.float64).dtype)

n_fft, hop = 16, 4
t = torch.arange(128)
cycles = torch.where(t < 64, 2, 5)  # 2 cycles per n_fft samples, then 5
x = torch.sin(2 * math.pi * cycles * t / n_fft)
window = torch.hann_window(n_fft)
spec = torch.stft(x, n_fft, hop_length=hop, window=window, return_complex=True)
print("stft:", spec.dtype, tuple(spec.shape))  # (n_fft // 2 + 1 frequencies, frames)
peak = spec.abs().argmax(dim=0)  # the loudest frequency bin of each frame
print("loudest bin: frame 4 ->", peak[4].item(), "frame 28 ->", peak[28].item())
y = torch.istft(spec, n_fft, hop_length=hop, window=window, length=len(x))
print("istft gives x back:", torch.allclose(y, x, atol=1e-5))
same = x.stft(n_fft, hop_length=hop, window=window, return_complex=True)  # the method form
print("x.stft equals torch.stft:", torch.equal(same, spec))
back = spec.istft(n_fft, hop_length=hop, window=window, length=len(x))
print("spec.istft gives x back:", torch.allclose(back, x, atol=1e-5))
batch = torch.stack([x, 2 * x])  # a batch of signals: one spectrogram each
specs = torch.stft(batch, n_fft, hop_length=hop, window=window, return_complex=True)
print("batch:", tuple(specs.shape))

try:
    torch.stft(x, n_fft, hop_length=hop, window=window)  # return_complex not given
except RuntimeError as error:
    print(f"RuntimeError: {error}")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.stft(x, n_fft, hop_length=hop, return_complex=True)  # no window
print("without window:", [w.category.__name__ for w in caught])
