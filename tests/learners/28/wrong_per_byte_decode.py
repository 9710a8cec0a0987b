# mistake: each byte is decoded on its own
# varies: right_manual_utf8.py

def byte_encode(text):
    return list(text.encode("utf-8"))


def byte_decode(ids):
    out = ""
    for b in ids:
        out += bytes([b]).decode("utf-8", errors="replace")
    return out
