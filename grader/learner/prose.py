"""A lesson's prose in the terminal: Markdown wrapped to the width (never cut), and its LaTeX math
(`$k \\le V$`, `$$...$$`) as plain text (`k ≤ V`).

The math is read by a small recursive reader of the TeX the lessons use: commands with arguments
(`\\frac`, `\\sqrt`, `\\mathrm`, ...), groups, super- and subscripts, environments (matrices, cases)
and a table of symbols. A command it does not know keeps its name; nothing raises.
"""
import re

from rich.markdown import Markdown

SYMBOLS = {
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "lt": "<", "gt": ">",
    "in": "∈", "notin": "∉", "infty": "∞", "sum": "Σ", "prod": "Π", "partial": "∂", "nabla": "∇",
    "cdot": "·", "times": "×", "odot": "⊙", "otimes": "⊗", "pm": "±", "mp": "∓", "approx": "≈",
    "sim": "~", "propto": "∝", "equiv": "≡", "leftarrow": "←", "rightarrow": "→", "to": "→",
    "gets": "←", "Leftarrow": "⇐", "Rightarrow": "⇒", "iff": "⇔", "implies": "⇒", "mid": "|",
    "dots": "…", "ldots": "…", "cdots": "⋯", "vdots": "⋮", "ddots": "⋱", "top": "ᵀ", "prime": "′",
    "ell": "ℓ", "forall": "∀", "exists": "∃", "cup": "∪", "cap": "∩", "subset": "⊂",
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ",
    "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ",
    "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ",
    "Theta": "Θ", "Lambda": "Λ", "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
    "{": "{", "}": "}", "%": "%", "$": "$", "_": "_", "&": "&", "#": "#", "|": "‖",
    ",": " ", ";": " ", ":": " ", " ": " ", "!": "", "quad": "  ", "qquad": "   ", "\\": "; ",
}
TEXT = {"mathrm", "text", "textrm", "textbf", "textit", "mathbf", "mathit", "mathsf", "mathtt",
        "mathcal", "mathbb", "operatorname", "boldsymbol", "bm"}
ACCENTS = {"hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "bar": "\u0304",
           "overline": "\u0304", "vec": "\u20d7", "dot": "\u0307"}
SIZES = {"left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl",
         "biggr", "middle", "displaystyle", "textstyle", "limits", "nolimits"}
MATRICES = {"matrix", "bmatrix", "pmatrix", "vmatrix", "array"}
SUPERSCRIPT = dict(zip("0123456789+-=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ"))
MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$\w])\$(?=\S)((?:[^$\n]|\n(?![ \t]*\n))+?)(?<=\S)\$(?![\w$])",
                  re.S)
CODE = re.compile(r"(^```.*?^```[ \t]*$|`[^`\n]*`)", re.S | re.M)


def wrapped(text):
    """A term as it reads after `/` or `^`: bare when one token, else in parentheses."""
    text = text.strip()
    return text if re.fullmatch(r"[A-Za-z0-9.′]+|\S", text) else f"({text})"


class Reader:
    """Reads TeX math from `source` into plain text."""

    def __init__(self, source):
        self.s, self.i = source, 0

    def peek(self):
        return self.s[self.i] if self.i < len(self.s) else ""

    def skip_spaces(self):
        while self.peek().isspace():
            self.i += 1

    def group(self, closing=None):
        """Text up to `closing` (consumed) or the end."""
        parts = []
        while self.i < len(self.s):
            c = self.s[self.i]
            if c == closing:
                self.i += 1
                break
            if c == "}":            # an unmatched closing brace
                self.i += 1
            else:
                parts.append(self.atom())
        return "".join(parts)

    def argument(self):
        """A command's or script's argument: a {group}, a command, or one character."""
        self.skip_spaces()
        c = self.peek()
        if c == "{":
            self.i += 1
            return self.group("}")
        if c in ("", "}"):
            return ""
        return self.atom()

    def atom(self):
        c = self.s[self.i]
        if c == "{":
            self.i += 1
            return self.group("}")
        if c == "\\":
            return self.command()
        if c in "^_":
            self.i += 1
            return self.script(c, self.argument())
        self.i += 1
        return {"&": " ", "~": " "}.get(c, c)

    def name(self):
        self.i += 1                                   # the backslash
        match = re.match(r"[A-Za-z]+", self.s[self.i:])
        if match:
            self.i += match.end()
            return match.group()
        c = self.peek()
        self.i += len(c)
        return c

    def command(self):
        name = self.name()
        if name in TEXT:
            return self.argument()
        if name in ("frac", "tfrac", "dfrac", "cfrac"):
            top, bottom = self.argument(), self.argument()
            return f"{wrapped(top)}/{wrapped(bottom)}"
        if name == "sqrt":
            self.skip_spaces()
            if self.peek() == "[":                    # \sqrt[n]{x}
                end = self.s.find("]", self.i)
                root, self.i = self.s[self.i + 1:end if end > 0 else len(self.s)], (
                    end + 1 if end > 0 else len(self.s))
                return f"{Reader(root).group()}√{wrapped(self.argument())}"
            return "√" + wrapped(self.argument())
        if name in ACCENTS:
            base = self.argument()
            return base + ACCENTS[name] if len(base) == 1 else f"{name}({base})"
        if name in ("begin", "end"):
            env = self.argument().rstrip("*")
            if env in MATRICES:
                if name == "begin" and env == "array" and self.peek() == "{":
                    self.argument()                   # the column spec
                return " [" if name == "begin" else "]"
            return "{ " if (env == "cases" and name == "begin") else ""
        if name in SIZES:
            self.skip_spaces()
            if self.peek() == ".":                    # \left. is no delimiter
                self.i += 1
            return ""
        if name == "pmod":
            return f" (mod {self.argument()})"
        if name in SYMBOLS:
            return SYMBOLS[name]
        return name + (" " if self.peek().isalnum() else "")   # \log x, \tanh z, \max, ...

    def script(self, kind, arg):
        arg = arg.strip()
        if kind == "^":
            if arg in ("ᵀ", "′"):
                return arg
            if arg and all(c in SUPERSCRIPT for c in arg) and len(arg) <= 2:
                return "".join(SUPERSCRIPT[c] for c in arg)
            return "^" + wrapped(arg)
        return "_" + wrapped(arg)


def tex_text(tex):
    """LaTeX math as plain text: `\\frac{a}{\\sqrt{d}}` as `a/√d`."""
    text = Reader(tex).group()
    text = re.sub(r"[ \t]+", " ", text)
    text = re.sub(r" ?\n ?", "\n", text)
    text = re.sub(r"([(\[]) ", r"\1", text)
    return re.sub(r" ([,.;)\]])", r"\1", text).strip()


def plain_math(markdown):
    """Markdown with every math span (outside code) as plain text; `$$` display math keeps a
    paragraph of its own."""
    def math(m):
        if m.group(1) is not None:
            return " ".join(tex_text(m.group(1)).split())
        return tex_text(m.group(2))
    parts = CODE.split(markdown)
    return "".join(part if i % 2 else MATH.sub(math, part) for i, part in enumerate(parts))


def print_markdown(console, text):
    """Print lesson prose: wrapped to the console's width, never cut, math as plain text."""
    console.print(Markdown(plain_math(text)), soft_wrap=False)
