"""Matrix products and the older linear-algebra names as tensor methods: a.addmm(b, c) is
torch.addmm(a, b, c), a.addmm_(b, c) writes into a; det, inverse and friends call torch.linalg.

Run: python methods_linalg.py
"""
import torch

torch.set_printoptions(precision=4)

a = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
v = torch.tensor([1.0, 2.0])
print("mv:", a.mv(v), "| inner:", v.inner(v), "| vdot:", v.vdot(v))
z = torch.tensor([1 + 1j, 2j])
print("vdot conjugates its first argument:", z.vdot(z), "| inner does not:", z.inner(z))

# The add* family: beta * self + alpha * (product)
bias = torch.ones(2, 2)
print("addmm:", bias.addmm(a, a, beta=0.5, alpha=1), sep="\n")
print("addmv:", v.addmv(a, v), "| addr:", bias.addr(v, v).tolist())
batch = torch.stack([a, a])  # two 2x2 matrices
print("baddbmm (one result per matrix):", bias.baddbmm(batch, batch).shape)
print("addbmm (summed over the batch):", bias.addbmm(batch, batch), sep="\n")
out = bias.clone()
ptr = out.data_ptr()
out.addmm_(a, a)  # in place: out = out + a @ a
print("addmm_:", out.tolist(), "| same memory:", out.data_ptr() == ptr)
print("addmv_:", v.clone().addmv_(a, v), "| addr_:", bias.clone().addr_(v, v).tolist())
print("baddbmm_:", torch.ones(2, 2, 2).baddbmm_(batch, batch)[0].tolist())
print("addbmm_:", bias.clone().addbmm_(batch, batch).tolist())

# Determinant, inverse, powers: the same results as torch.linalg
sign, logabs = a.slogdet()
print(f"det: {a.det():.4f} | logdet: {a.logdet():.4f} | slogdet: {sign:.0f}, {logabs:.4f}")
print("inverse:", a.inverse(), "pinverse:", a.pinverse(), sep="\n")
print("matrix_power(2):", a.matrix_power(2).tolist(), "| matrix_power(-1) == inverse:",
      torch.allclose(a.matrix_power(-1), a.inverse()))
print("matrix_exp of 0:", torch.zeros(2, 2).matrix_exp().tolist())

# Cholesky and Householder QR, on the factor from torch.linalg
L = torch.linalg.cholesky(a)
rhs = torch.tensor([[1.0], [2.0]])
print("cholesky_solve:", rhs.cholesky_solve(L).flatten(), "| solve:",
      torch.linalg.solve(a, rhs).flatten())
print("cholesky_inverse == inverse:", torch.allclose(L.cholesky_inverse(), a.inverse()))
qr, tau = a.geqrf()  # R above the diagonal, Householder vectors below
q = qr.orgqr(tau)    # Q from them
print("orgqr: Q orthogonal:", torch.allclose(q.T @ q, torch.eye(2), atol=1e-6),
      "| Q @ R == a:", torch.allclose(q @ qr.triu(), a, atol=1e-6))
print("ormqr(Q @ x) == orgqr @ x:", torch.allclose(qr.ormqr(tau, rhs), q @ rhs, atol=1e-6))
print("norm:", a.norm(), a.norm(p=1, dim=0))
