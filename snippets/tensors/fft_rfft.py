"""torch.fft.fft / ifft, rfft / irfft and hfft / ihfft on a sine, and the three norm= options.

Run: python fft_rfft.py
"""
import math

import torch


def r(t):
    return t.round(decimals=4) + 0.0  # rounded; + 0.0 turns -0.0 into 0.0


n = 8
t = torch.arange(n)
x = torch.sin(2 * math.pi * 2 * t / n)  # a sine of 2 cycles in 8 samples
X = torch.fft.fft(x)
print("fft:", X.dtype, tuple(X.shape))  # complex, same length as x
print("|fft|:", r(X.abs()))  # bins 2 and 8 - 2, each n / 2
print("ifft back:", r(torch.fft.ifft(X).real))

for norm in ["backward", "ortho", "forward"]:  # "backward" is the default
    fwd = torch.fft.fft(x, norm=norm).abs()[2]
    back = torch.fft.ifft(torch.ones(n), norm=norm).abs()[0]  # the inverse's scale
    print(f"norm={norm!r}: |fft| at bin 2 = {fwd:.4f}, ifft scale = {back:.4f}")

R = torch.fft.rfft(x)  # real input: only the n // 2 + 1 non-negative frequencies
print("rfft length:", R.shape[0], "|rfft|:", r(R.abs()))
print("irfft back:", r(torch.fft.irfft(R)))

y = torch.arange(7.0)  # odd length
Y = torch.fft.rfft(y)
print("odd: rfft length", Y.shape[0], "-> irfft length", torch.fft.irfft(Y).shape[0])
print("irfft with n=7:", r(torch.fft.irfft(Y, n=7)))  # pass n to get the odd length back

H = torch.fft.ihfft(y)  # the inverse of hfft: a one-sided spectrum, like rfft
print("ihfft length:", H.shape[0], "hfft back:", r(torch.fft.hfft(H, n=7)))
