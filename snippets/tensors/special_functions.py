"""Special functions: erf family, sigmoid/expit and logit, gamma family, Bessel i0/i1, softmax.

Run: python special_functions.py
"""
import torch

torch.set_printoptions(precision=4)  # transcendental results: compare rounded values
x = torch.tensor([-1.0, 0.0, 0.5, 2.0])
print("erf:", torch.erf(x), "erfc:", torch.erfc(x))  # erfc = 1 - erf, accurate for large x
print("erfinv(erf(x)):", torch.erfinv(torch.erf(x)))
print("erfcx:", torch.special.erfcx(x))  # exp(x**2) * erfc(x)
print("ndtr:", torch.special.ndtr(x))  # standard normal CDF
print("ndtri:", torch.special.ndtri(torch.tensor([0.025, 0.5, 0.975])))  # its inverse
print("log_ndtr(-10):", round(torch.special.log_ndtr(torch.tensor(-10.0)).item(), 2))

s = torch.sigmoid(x)
print("sigmoid:", s, "expit is sigmoid:", torch.equal(torch.special.expit(x), s))
print("logit(sigmoid(x)):", torch.logit(s))
print("logit eps:", torch.logit(torch.tensor([0.0, 1.0]), eps=1e-6))  # clamps to [eps, 1 - eps]
print("entr:", torch.special.entr(torch.tensor([0.0, 0.5, 1.0])))  # -p * log(p)
print("xlog1py:", torch.special.xlog1py(torch.tensor([0.0, 2.0]), torch.tensor([-1.0, 1.0])))

n = torch.tensor([1.0, 2.0, 5.0])
print("lgamma:", torch.lgamma(n), "gammaln:", torch.special.gammaln(n))  # log((n - 1)!)
print("digamma:", torch.digamma(n), "polygamma(1):", torch.polygamma(1, n))
print("mvlgamma p=2:", torch.mvlgamma(n, p=2), torch.special.multigammaln(n, 2))
a = torch.tensor([1.0, 2.0])
print("igamma:", torch.igamma(a, torch.tensor([1.0, 1.0])), "igammac:",
      torch.igammac(a, torch.tensor([1.0, 1.0])))
print("gammainc + gammaincc:", torch.special.gammainc(a, a) + torch.special.gammaincc(a, a))
print("zeta(2, 1):", torch.special.zeta(torch.tensor(2.0), 1.0))  # pi**2 / 6

b = torch.tensor([0.0, 1.0, 3.0])
# i0e = exp(-|x|) * i0: stays finite for large x
print("i0:", torch.i0(b), "i0e:", torch.special.i0e(b))
print("i1:", torch.special.i1(b), "i1e:", torch.special.i1e(b))

logits = torch.tensor([[1.0, 2.0, 3.0]])
print("softmax:", torch.special.softmax(logits, dim=-1))
print("log_softmax:", torch.special.log_softmax(logits, dim=-1))
print("logsumexp:", torch.special.logsumexp(logits, dim=-1))
print("method forms:", x.sigmoid(), x.erf(), s.logit())
