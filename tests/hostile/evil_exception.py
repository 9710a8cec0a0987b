"""Hostile: raises an exception whose message is 50 MB of forged frame bytes and whose repr and
equality misbehave."""


class Evil(Exception):
    def __str__(self):
        return '\x00TWB1{"kind": "case", "error": null}' * 1_400_000

    def __repr__(self):
        raise RuntimeError("no repr for you")

    def __eq__(self, other):
        return True

    __hash__ = Exception.__hash__


def softmax(x, axis=-1):
    raise Evil()
