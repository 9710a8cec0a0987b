# used PyTorch's default exact (erf) GELU instead of GPT-2's tanh form
# varies: right_module.py

def mlp(x, params, prefix):
    """GPT-2's MLP: widen to 4D with c_fc, tanh GELU, narrow back to D with c_proj.

    x: (B, T, D), the block's normalised input. params[prefix + "mlp.c_fc.weight"] has shape
    (D, 4D) and params[prefix + "mlp.c_proj.weight"] (4D, D), each with its bias. Returns (B, T, D).
    """
    p = lambda n: params[prefix + n]
    h = F.gelu(torch.addmm(p("mlp.c_fc.bias"), x.reshape(-1, x.shape[-1]), p("mlp.c_fc.weight")), )
    out = torch.addmm(p("mlp.c_proj.bias"), h, p("mlp.c_proj.weight"))
    return out.reshape(x.shape)
