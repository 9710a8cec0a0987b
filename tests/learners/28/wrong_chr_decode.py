# mistake: byte_decode turns each byte into a character with chr
# varies: right_manual_utf8.py

def byte_encode(text):
    return list(text.encode("utf-8"))


def byte_decode(ids):
    return "".join([chr(b) for b in ids])
