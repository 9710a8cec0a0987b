# %% [markdown]
# ### The worked example, step by step
#
# A character vocabulary trained on `"hello world"`, then the bytes of a few characters.

# %%
text = "hello world"
vocab = ["<unk>"] + sorted(set(text))
for i, c in enumerate(vocab):
    print(f"id {i}: {c!r} (code point {ord(c)})" if len(c) == 1 else f"id {i}: {c!r}")
index = {c: i for i, c in enumerate(vocab)}
ids = [index.get(c, 0) for c in "Hello!"]
print("'Hello!' ->", ids, "->", repr("".join(vocab[i] for i in ids)))

# %% [markdown]
# Each character as its code point and its UTF-8 bytes: one byte for ASCII, up to four for an emoji.

# %%
for c in "aé€😀":
    print(f"{c!r}: code point {ord(c)}, bytes {list(c.encode('utf-8'))}")
print("'café' cut after 4 bytes:", repr(bytes(list("café".encode("utf-8"))[:4]).decode("utf-8", errors="replace")))

# %% [markdown]
# ### A picture: how long a text is in characters and in bytes
#
# The same greeting in six languages: the bars show how many ids each takes with a character
# tokenizer and with the byte tokenizer. ASCII text costs the same either way; other scripts cost
# two to four bytes a character.

# %%
import matplotlib.pyplot as plt

greetings = {"English": "good morning", "German": "guten Morgen, Übung", "Greek": "καλημέρα",
             "Russian": "доброе утро", "Chinese": "早上好", "emoji": "👋🙂☀️"}
names = list(greetings)
chars = [len(s) for s in greetings.values()]
nbytes = [len(s.encode("utf-8")) for s in greetings.values()]
fig, ax = plt.subplots(figsize=(7, 3))
xs = range(len(names))
ax.bar([x - 0.2 for x in xs], chars, width=0.4, label="characters")
ax.bar([x + 0.2 for x in xs], nbytes, width=0.4, label="UTF-8 bytes")
ax.set_xticks(list(xs), names)
ax.set_ylabel("ids")
ax.legend()
plt.tight_layout()
plt.show()
