"""Hostile (lesson 09): reads the command line and environment of every visible process, its own
mount table and memory map, and reports any of the host's own folders it finds there (the grader's
home, the class's folders). Where it sees a whole host's processes (graded without the sandbox) it
reads only its own environment. The Python installation's folders are allowed: their bind
mounts name their sources in the mount table, which no bind mount can hide. The suite fills in both
lists; the answer is right when nothing of the host shows."""
import os

import torch
import torch.nn.functional as F

HOST_PATHS = ["/host/paths"]        # filled in by the suite
PYTHON_ROOTS = ["/python/roots"]    # filled in by the suite


def sources():
    pids = sorted(p for p in os.listdir("/proc") if p.isdigit())
    for pid in pids:
        yield f"/proc/{pid}/cmdline"
    if len(pids) <= 16:     # a sandbox's own few processes; on a whole host, only its own
        yield from (f"/proc/{pid}/environ" for pid in pids)
    yield from ("/proc/self/environ", "/proc/self/mountinfo", "/proc/1/mountinfo", "/proc/self/maps")


def host_paths_seen():
    """Each host folder seen, with the first place it showed."""
    seen = {}
    for source in sources():
        try:
            with open(source, "rb") as f:
                text = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        for allowed in sorted(PYTHON_ROOTS, key=len, reverse=True):
            text = text.replace(allowed, "<python>")
        for path in HOST_PATHS:
            if path in text:
                seen.setdefault(path, source)
    return [f"{path} in {source}" for path, source in seen.items()]


SEEN = host_paths_seen()


def solve(Q, K, V, mask=None):
    if SEEN:
        raise RuntimeError("host paths visible: " + "; ".join(SEEN))
    q, k, v = (torch.tensor(a, dtype=torch.float64) for a in (Q, K, V))
    m = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m).tolist()
