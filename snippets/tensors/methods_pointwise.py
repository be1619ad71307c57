"""Pointwise math as tensor methods: x.sqrt() is torch.sqrt(x), and x.sqrt_() writes into x.

Run: python methods_pointwise.py
"""
import torch

torch.set_printoptions(precision=4)


def t():  # a fresh float tensor for each in-place call
    return torch.tensor([0.25, 0.5])


# The in-place form returns the tensor it changed: same object, same memory
x = torch.tensor([4.0, 9.0])
ptr = x.data_ptr()
y = x.sqrt_()
print("sqrt_:", x, "| returns x:", y is x, "| same memory:", x.data_ptr() == ptr)
x.pow_(2).reciprocal_()  # in-place calls chain
print("pow_(2).reciprocal_():", x)
print("sqrt rsqrt:", t().sqrt(), t().rsqrt(), "| sqrt_ rsqrt_:", t().sqrt_(), t().rsqrt_())
print("square pow:", t().square(), t().pow(3), "| square_ pow_:", t().square_(), t().pow_(3))
print("reciprocal:", t().reciprocal(), t().reciprocal_(), "| neg_ positive:", t().neg_(),
      t().positive())

# Arithmetic with a second operand
a, b = torch.tensor([-7.0, 7.0]), torch.tensor([2.0, -2.0])
print("floor_divide:", a.floor_divide(b), a.clone().floor_divide_(b))
print("remainder fmod:", a.remainder(b), a.fmod(b), a.clone().remainder_(b), a.clone().fmod_(b))
print("addcmul addcdiv:", t().addcmul(a, b, value=0.5), t().addcdiv(a, b), t().addcmul_(a, b),
      t().addcdiv_(a, b))
d = torch.tensor([2.0, 3.0], dtype=torch.float64)  # float_power_ needs a float64 tensor
print("float_power:", t().float_power(2), d.float_power_(2))

# Exponentials and logarithms
print("exp2 expm1:", t().exp2(), t().expm1(), t().exp2_(), t().expm1_())
print("log2 log10:", t().log2(), t().log10(), t().log2_(), t().log10_())
print("log_ log1p_:", t().log_(), t().log1p_())
print("logaddexp logaddexp2:", t().logaddexp(b), t().logaddexp2(b))
print("xlogy:", torch.tensor([0.0, 2.0]).xlogy(t()), torch.tensor([0.0, 2.0]).xlogy_(t()))
m, e = torch.tensor([8.0, 0.75]).frexp()  # mantissa, exponent
print("frexp:", m, e, "| ldexp:", m.ldexp(e), m.clone().ldexp_(e))

# Trigonometry, in radians
print("sin_ cos_:", t().sin_(), t().cos_(), "| tan:", t().tan(), t().tan_())
print("asin acos atan:", t().asin(), t().acos(), t().atan())
print("asin_ acos_ atan_:", t().asin_(), t().acos_(), t().atan_())
print("atan2:", t().atan2(b), t().atan2_(b))
print("sinh cosh:", t().sinh(), t().cosh(), t().sinh_(), t().cosh_(), "| tanh_:", t().tanh_())
print("asinh atanh:", t().asinh(), t().atanh(), t().asinh_(), t().atanh_())
one = torch.tensor([1.0, 2.0])  # acosh is defined from 1
print("acosh:", one.acosh(), one.clone().acosh_())
print("deg2rad:", torch.tensor([180.0]).deg2rad(), torch.tensor([90.0]).deg2rad_())
print("rad2deg:", torch.tensor([3.1416]).rad2deg(), torch.tensor([1.5708]).rad2deg_())
print("hypot:", torch.tensor([3.0]).hypot(torch.tensor([4.0])),
      torch.tensor([5.0]).hypot_(torch.tensor([12.0])))
print("sinc:", t().sinc(), t().sinc_())

# Rounding, signs, NaN
r = torch.tensor([-1.5, 2.5, 0.75])
print("round_ ceil_ trunc_ frac_:", r.clone().round_(), r.clone().ceil_(), r.clone().trunc_(),
      r.clone().frac_())
print("nextafter above 1:", torch.tensor([1.0]).nextafter(torch.tensor([2.0])) > 1,
      torch.tensor([1.0]).nextafter_(torch.tensor([0.0])) < 1)
print("sign_ sgn:", r.clone().sign_(), r.sgn(), r.clone().sgn_(), torch.tensor([3 + 4j]).sgn())
print("signbit:", torch.tensor([-0.0, 0.0, -2.0]).signbit())
print("copysign:", t().copysign(b), t().copysign_(b))
n = torch.tensor([float("nan"), float("inf"), 1.0])
print("nan_to_num:", n.nan_to_num(posinf=9.0), n.clone().nan_to_num_(nan=-1.0, posinf=8.0))
print("lerp:", t().lerp(b, 0.5), t().lerp_(b, 0.5))
print("clip:", r.clip(-1, 1), r.clone().clip_(min=0))
print("heaviside:", r.heaviside(torch.tensor([0.5])),
      torch.tensor([0.0, -2.0]).heaviside_(torch.tensor([0.5])))
c = torch.tensor([1 + 2j])
print("conj_physical:", c.conj_physical(), c.clone().conj_physical_())

# Integers and booleans: bitwise, logical, gcd / lcm
i, j = torch.tensor([12, 10]), torch.tensor([10, 6])
print("bitwise_and_ or xor:", i.clone().bitwise_and_(j), i.bitwise_or(j), i.bitwise_xor(j))
print("bitwise_or_ xor_:", i.clone().bitwise_or_(j), i.clone().bitwise_xor_(j))
print("bitwise_not:", i.bitwise_not(), i.clone().bitwise_not_())
print("shifts:", i.bitwise_left_shift(1), i.bitwise_right_shift(2),
      i.clone().bitwise_left_shift_(1),
      i.clone().bitwise_right_shift_(2))
p, q = torch.tensor([True, False]), torch.tensor([True, True])
print("logical_and_ or xor:", p.clone().logical_and_(q), p.logical_or(q), p.logical_xor(q))
print("logical_or_ xor_ not_:", p.clone().logical_or_(q), p.clone().logical_xor_(q),
      p.clone().logical_not_())
print("gcd lcm:", i.gcd(j), i.lcm(j), i.clone().gcd_(j), i.clone().lcm_(j))

# Special functions
print("erf_ erfc:", t().erf_(), t().erfc(), t().erfc_())
print("erfinv:", t().erfinv(), t().erfinv_())
print("sigmoid_ logit_:", t().sigmoid_(), t().logit_())
g = torch.tensor([1.5, 3.0])
print("lgamma digamma:", g.lgamma(), g.digamma(), g.clone().lgamma_(), g.clone().digamma_())
print("polygamma(1):", g.polygamma(1), g.clone().polygamma_(1))
print("mvlgamma(p=2):", g.mvlgamma(2), g.clone().mvlgamma_(2))
print("igamma igammac:", g.igamma(g), g.igammac(g), g.clone().igamma_(g), g.clone().igammac_(g))
print("i0:", g.i0(), g.clone().i0_())
