"""torch.special: Bessel and Airy functions, and the classical orthogonal polynomials.

Run: python special_polynomials.py
"""
import torch
from torch import special

x = torch.tensor([0.5, 1.0, 2.0])


def show(name, values):
    # rounded; + 0.0 turns -0.0 into 0.0
    print(f"{name}:", [round(v, 4) + 0.0 for v in values.tolist()])


show("bessel_j0", special.bessel_j0(x))  # Bessel, first kind
show("bessel_j1", special.bessel_j1(x))
show("bessel_y0", special.bessel_y0(x))  # second kind
show("bessel_y1", special.bessel_y1(x))
show("modified_bessel_i0", special.modified_bessel_i0(x))  # the same as torch.i0
show("modified_bessel_i1", special.modified_bessel_i1(x))
show("modified_bessel_k0", special.modified_bessel_k0(x))
show("modified_bessel_k1", special.modified_bessel_k1(x))
show("scaled_modified_bessel_k0", special.scaled_modified_bessel_k0(x))  # exp(x) * k0(x)
show("scaled_modified_bessel_k1", special.scaled_modified_bessel_k1(x))
show("spherical_bessel_j0", special.spherical_bessel_j0(x))  # sin(x) / x
show("airy_ai", special.airy_ai(x))

t = torch.tensor([-0.5, 0.0, 0.5, 1.0])
n = 3  # the degree: an int or a tensor
show("chebyshev_polynomial_t", special.chebyshev_polynomial_t(t, n))  # cos(n * acos(t))
show("chebyshev_polynomial_u", special.chebyshev_polynomial_u(t, n))
show("chebyshev_polynomial_v", special.chebyshev_polynomial_v(t, n))
show("chebyshev_polynomial_w", special.chebyshev_polynomial_w(t, n))
show("shifted_chebyshev_polynomial_t", special.shifted_chebyshev_polynomial_t(t, n))  # on [0, 1]
show("shifted_chebyshev_polynomial_u", special.shifted_chebyshev_polynomial_u(t, n))
show("shifted_chebyshev_polynomial_v", special.shifted_chebyshev_polynomial_v(t, n))
show("shifted_chebyshev_polynomial_w", special.shifted_chebyshev_polynomial_w(t, n))
show("legendre_polynomial_p", special.legendre_polynomial_p(t, n))
show("hermite_polynomial_h", special.hermite_polynomial_h(t, n))  # physicists'
show("hermite_polynomial_he", special.hermite_polynomial_he(t, n))  # probabilists'
show("laguerre_polynomial_l", special.laguerre_polynomial_l(t, n))
show("degree per element",
     special.legendre_polynomial_p(torch.tensor(0.5), torch.tensor([0, 1, 2])))
