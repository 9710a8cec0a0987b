# mistake: byte_encode returns code points (ord) instead of UTF-8 bytes
# varies: right_manual_utf8.py

def byte_encode(text):
    return [ord(ch) for ch in text]
