"""torch.fft in 2-D and n-D: fft2 / ifft2, fftn / ifftn, rfft2 / irfft2, rfftn / irfftn,
hfft2 / ihfft2 and hfftn / ihfftn, with the s= and dim= arguments.

Run: python fft_nd.py
"""
import math

import torch

rows, cols = torch.meshgrid(torch.arange(4), torch.arange(6), indexing="ij")
img = torch.sin(2 * math.pi * (rows / 4 + 2 * cols / 6))  # 1 cycle down, 2 across
F = torch.fft.fft2(img)  # over the last two dimensions
peaks = (F.abs() > 1).nonzero().tolist()
print("fft2 shape:", tuple(F.shape), "peaks at:", peaks, "size:", round(F.abs().max().item(), 4))
print("ifft2 back:", torch.allclose(torch.fft.ifft2(F).real, img, atol=1e-6))

batch = torch.stack([img, 2 * img])  # [2, 4, 6]: fftn over chosen dims = fft2 per image
Fn = torch.fft.fftn(batch, dim=(-2, -1))
print("fftn dim=(-2, -1) == fft2:", torch.allclose(Fn, torch.fft.fft2(batch), atol=1e-5))
print("ifftn back:", torch.allclose(torch.fft.ifftn(Fn, dim=(-2, -1)).real, batch, atol=1e-6))
print("fftn over all dims:", tuple(torch.fft.fftn(batch).shape))

R2 = torch.fft.rfft2(img)  # the last dimension is halved: 6 // 2 + 1
print("rfft2 shape:", tuple(R2.shape))
print("irfft2 with s=:", torch.allclose(torch.fft.irfft2(R2, s=img.shape), img, atol=1e-6))
Rn = torch.fft.rfftn(batch)
print("rfftn shape:", tuple(Rn.shape))
back = torch.fft.irfftn(Rn, s=batch.shape)
print("irfftn with s=:", torch.allclose(back, batch, atol=1e-5))

H2 = torch.fft.ihfft2(img)  # one-sided, like rfft2; hfft2 returns to real
print("ihfft2 shape:", tuple(H2.shape))
print("hfft2 with s=:", torch.allclose(torch.fft.hfft2(H2, s=img.shape), img, atol=1e-6))
Hn = torch.fft.ihfftn(batch)
print("hfftn with s=:", torch.allclose(torch.fft.hfftn(Hn, s=batch.shape), batch, atol=1e-5))
