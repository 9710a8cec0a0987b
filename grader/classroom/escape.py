"""The one sanitising layer of each kind of output a class run writes, for every string a learner
may have chosen (folder and file names, what their code raised or printed, anything quoted from it).
Every writer of that kind of output passes its text through here, never through escapes of its own:

* `plain`: control characters removed (terminal escape sequences whole: CSI, OSC and the rest), so
  nothing a learner wrote can clear a screen, write a clipboard, retitle a window or turn text
  around; under every other kind.
* `terminal`: plain text made safe for the instructor's terminal through rich (its markup escaped).
* `md`, `md_prose`, `md_code`, `md_block`: Markdown (feedback .md, `grader feedback`, Gradescope's
  results.json): learner text can make no HTML, link, image, heading, list or emphasis.
* `html`, `html_prose`: HTML pages (feedback and the class report), escaped.
* `csv_text`: a CSV file for spreadsheets whose cells never start a formula (OWASP's
  CSV-injection rule: a cell starting with =, +, -, @, a tab or a carriage return is prefixed with
  a single quote), with a UTF-8 byte-order mark first, without which Excel misreads UTF-8 names.
"""
import csv
import html as html_
import io
import re

from rich.markup import escape as rich_escape

# ESC [ ... final (CSI), ESC ] ... BEL or ESC \ (OSC), ESC P/X/^/_ ... ESC \ (DCS, SOS, PM, APC),
# ESC and one more character; then every other C0/C1 control, DEL and the bidirectional overrides.
# Each alternative reads forward without backtracking (disjoint classes), so this is linear.
SEQUENCE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
                      r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b.?|\x9b[0-?]*[ -/]*[@-~]?"
                      r"|\x9d[^\x07\x1b\x9c]*[\x07\x9c]?")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
DIRECTION = re.compile(r"[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
FORMULA = ("=", "+", "-", "@", "\t", "\r", "\0")
MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#!|~&$@])")       # markup wherever it stands
MD_LEADING = re.compile(r"^(\s*)([-+=>]|\d+[.)])")              # markup where a line starts
MD_AUTOLINK = re.compile(r"(?i):(?=//)|(?<=www)\.")             # what makes a bare URL a link


def encodable(text):
    """`text` as a string UTF-8 can write: lone surrogates (bytes that were not UTF-8) shown as
    backslash escapes."""
    text = str(text)
    try:
        text.encode()
    except UnicodeEncodeError:
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def plain(text, newlines=True):
    """`text` without control characters (tabs become spaces; newlines stay, or become spaces), and
    bytes that were not UTF-8 (surrogates) shown as backslash escapes."""
    if type(text) is str and text.isprintable():    # no control, format or separator character,
        return text                                 # no surrogate: nothing to remove
    text = SEQUENCE.sub("", encodable(text)).replace("\t", " ")
    text = DIRECTION.sub("", CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n")))
    return text if newlines else text.replace("\n", " ")


# ---- the terminal ----

def terminal(text):
    """Text for rich's console.print: no control characters, no markup."""
    return rich_escape(plain(text))


# ---- Markdown ----

def md(text):
    """Learner text as inline Markdown: one line, every punctuation mark that could start markup
    backslash-escaped (CommonMark renders each as itself)."""
    text = MD_SPECIAL.sub(r"\\\1", plain(text, newlines=False))
    text = MD_AUTOLINK.sub(lambda m: "\\" + m[0], text)
    return MD_LEADING.sub(lambda m: m[1] + m[2][:-1] + "\\" + m[2][-1], text)


def md_code(text):
    """Text as one inline code span: one line, fenced by more backticks than it holds in a row."""
    text = plain(text, newlines=False)
    if not text.strip():
        return md(text)
    fence = "`" * (max(map(len, re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text[0] == "`" or text[-1] == "`" or text[0] == text[-1] == " " else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_block(text, indent=""):
    """Text as a fenced code block, every line indented by `indent` (so a block inside a list item
    stays inside it), the fence longer than any run of backticks the text holds."""
    text = plain(text)
    fence = "`" * max(3, max(map(len, re.findall(r"`+", text)), default=0) + 1)
    lines = [fence, *text.split("\n"), fence]
    return "\n".join(indent + line for line in lines)


def md_prose(text):
    """The grader's and the lessons' own messages, whose `backticked` parts are code, with anything
    else in them (it may quote a learner) escaped as `md` escapes it."""
    parts = re.split(r"`([^`\n]+)`", plain(text, newlines=False))
    return "".join(md_code(p) if i % 2 else md(p) for i, p in enumerate(parts))


# ---- HTML ----

def html(text):
    """Text for an HTML page, escaped; control characters dropped (HTML has no use for them; the
    writing direction marks stay, shown as the browser shows them)."""
    return html_.escape(CONTROL.sub("", encodable(text).replace("\r\n", "\n")), quote=True)


def html_prose(text):
    """Escaped text whose `backticked` parts show as code (the lessons' messages use them)."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html(text))


# ---- spreadsheets ----

def csv_cell(text):
    """A CSV cell that a spreadsheet shows as the text it is, never runs as a formula."""
    text = plain(text, newlines=False)
    return "'" + text if text.lstrip(" ").startswith(FORMULA) else text


def csv_text(rows):
    """The text of a CSV file of `rows` (lists of strings): a byte-order mark, then every cell
    made safe by csv_cell."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([csv_cell(cell) for cell in row])
    return out.getvalue()
