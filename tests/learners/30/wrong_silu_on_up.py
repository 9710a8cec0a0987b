# puts SiLU on the W3 branch instead of the W1 gate
# varies: right_sdpa_enable_gqa.py

def mlp(x, params, prefix):
    gate = x @ params[prefix + "W1"]
    up = F.silu(x @ params[prefix + "W3"])
    return (gate * up) @ params[prefix + "W2"]
