# mistake: invalid UTF-8 is dropped with errors=ignore
# varies: right_manual_utf8.py

def byte_encode(text):
    return list(text.encode("utf-8"))


def byte_decode(ids):
    return bytes(ids).decode("utf-8", errors="ignore")
