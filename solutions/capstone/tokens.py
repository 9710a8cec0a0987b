"""The capstone's tokenizer, made of the pieces: characters with lesson 28's functions (the
default) or byte-level BPE with lesson 29's, trained on the training part of the text."""
KINDS = ("chars", "bpe")


class Tokenizer:
    """encode(text) -> ids, decode(ids) -> text and len() = V, for either kind."""

    def __init__(self, kind, pieces, text, merges=40):
        self.kind, self.pieces = kind, pieces
        if kind == "chars":
            self.vocab = pieces.char_vocab(text)
            self.size = len(self.vocab)
        else:
            self.merges = [tuple(m) for m in pieces.train_bpe(text, 257 + merges)]
            self.size = 257 + len(self.merges)      # bytes, merges, <|endoftext|>

    def __len__(self):
        return self.size

    def encode(self, text):
        if self.kind == "chars":
            return self.pieces.char_encode(text, self.vocab)
        return self.pieces.encode(text, self.merges)

    def decode(self, ids):
        if self.kind == "chars":
            return self.pieces.char_decode(ids, self.vocab)
        return self.pieces.decode(ids, self.merges)

    def describe(self):
        """One line: which tokenizer, its V, and what its tokens look like."""
        if self.kind == "chars":
            return (f"characters (lesson 28): V = {self.size}, '<unk>' and "
                    f"{''.join(self.vocab[1:])!r}")
        made = [self.decode([256 + i]) for i in range(len(self.merges))]
        longest = sorted(made, key=lambda t: (-len(t), t))[:12]
        return (f"byte-level BPE (lesson 29): {len(self.merges)} merges, V = {self.size} (256 bytes, "
                f"the merges, <|endoftext|>); its longest tokens: {', '.join(map(repr, longest))}")
