import torch
import torch.nn.functional as F



def solve(X):
    x = torch.as_tensor(X, dtype=torch.float64)
    T, D = x.shape
    mask = torch.tril(torch.ones(T, T)).bool()
    a = F.scaled_dot_product_attention(x[None], x[None], x[None], attn_mask=mask)[0]
    ln = torch.nn.LayerNorm(D, eps=1e-5, elementwise_affine=False, dtype=torch.float64)
    with torch.no_grad():
        h = ln(x + a)
        out = h + torch.nn.ReLU()(h)
    return out.tolist()
