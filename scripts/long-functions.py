#!/usr/bin/env python3
"""Lists production C++ functions longer than a limit (STYLE.md: a function past ~80 lines is a sign to split).

Usage: scripts/long-functions.py [--max N] [--all] [PATH...]
  --max N   report functions longer than N lines (default 80)
  --all     include tests/ and bench/ (left out by default: they are not production code)
  PATH...   files or folders to read (default: the files git tracks in the repository)

Prints one line per function, longest first: `file:line  length  name`, then a count. Exits 0 either way.

How it reads: comments, string and character literals (raw strings included) and preprocessor lines are
blanked first, keeping line numbers; then braces are matched. A `{` at namespace or class scope opens a
function body when what precedes it (since the last `;`, `{` or `}`) has a parameter list at depth 0 and
ends like a declarator (`)`, `const`, `noexcept`, `override`, a trailing return type, a constructor's
initialiser list); `namespace`, `extern "C"`, `class`/`struct`/`union` open scopes read the same way, and
anything else (`enum`, `= {...}` initialisers, default member initialisers) is skipped whole. A body's
length runs from the first line of its declaration to its closing brace; lambdas and local classes count
toward the function that holds them.
"""
import os
import re
import subprocess
import sys

SOURCE = re.compile(r"\.(c|cc|cpp|cxx|h|hh|hpp|hxx|inc)$")
NOT_PRODUCTION = ("tests/", "bench/")


def blank(text):
    """The text with comments, literals and preprocessor lines replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#" or (line_start and c in " \t" and text[i:].lstrip(" \t").startswith("#")):
            # A preprocessor line, with its continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append("  \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "\n":
            out.append(c)
            i += 1
            line_start = True
            continue
        if c not in " \t":
            line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^()\\ ]{0,16})\(', text[i:i + 40])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = ")" + raw.group(1) + '"'
            end = text.find(close, i + raw.end())
            end = n if end < 0 else end + len(close)
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:end]))
            i = end
            continue
        if c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            # A literal; a ' between digits is a digit separator (1'000), handled above by the isalnum test.
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def depth0(header):
    """The header with everything inside (), [] and <> of templates left out."""
    out, depth = [], 0
    for ch in header:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


DECLARATOR_END = re.compile(
    r"\)\s*(?:const|volatile|noexcept(?:\s*\([^)]*\))?|override|final|mutable|&&?|\s)*"
    r"(?:->\s*[^;{}]+)?(?:\s*requires\s+[^;{}]+)?\s*$")
INITIALISER_LIST = re.compile(r"\)\s*(?:noexcept\s*)?:(?!:)")


def classify(header):
    """'function', 'scope' (namespace or class: look inside), or 'skip' (read past it whole)."""
    h = " ".join(header.split())
    h = re.sub(r"^(?:template\s*<[^{};]*?>\s*)+", "", h)  # template heads (defaults may hold '=')
    h = re.sub(r"\[\[[^\]]*\]\]", "", h)
    flat = depth0(h)
    if re.search(r"\bnamespace\b", flat) or re.fullmatch(r"\s*extern\s*(\"\")?\s*", h):
        return "scope"
    if re.search(r"\benum\b", flat):
        return "skip"
    if re.search(r"(?<![<>=!+\-*/%&|^])=(?!=)", flat) and not re.search(r"\boperator\s*\S*=", h):
        return "skip"  # an initialiser: `= {...}`, `= [] {...}`
    if re.search(r"\b(class|struct|union)\b", flat) and "(" not in flat.split(":")[0]:
        return "scope"
    if "(" in h and (DECLARATOR_END.search(h) or INITIALISER_LIST.search(h)):
        return "function"
    return "skip"


def function_name(header):
    h = " ".join(header.split())
    h = re.sub(r"^(?:template\s*<[^{};]*?>\s*)+", "", h)
    m = re.search(r"((?:[\w~]+::)*(?:operator\s*[^\s(]+|operator\s*\(\)|[\w~]+))\s*\(", h)
    return m.group(1) if m else h[:60]


def match_brace(text, i):
    """Index of the } matching the { at i."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(text) - 1


def functions(text):
    """(first line, last line, name) of each function body at namespace or class scope."""
    found = []
    line_of = lambda k: text.count("\n", 0, k) + 1

    def scan(start, end):
        header_start = start
        i = start
        while i < end:
            c = text[i]
            if c in ";}":
                header_start = i + 1
            elif c == "{":
                header = text[header_start:i]
                kind = classify(header)
                close = match_brace(text, i)
                if kind == "function" and INITIALISER_LIST.search(" ".join(header.split())) and \
                        not DECLARATOR_END.search(" ".join(header.split())) and \
                        re.search(r"[\w>]\s*$", header):
                    # A brace initialiser inside a constructor's initialiser list: part of the header.
                    i = close + 1
                    continue
                if kind == "function":
                    first = header_start + (len(header) - len(header.lstrip()))
                    found.append((line_of(first), line_of(close), function_name(header)))
                elif kind == "scope":
                    scan(i + 1, close)
                i = close + 1
                header_start = i
                continue
            i += 1

    scan(0, len(text))
    return found


def tracked_files(root):
    try:
        listed = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True, check=True)
        return [os.path.join(root, f) for f in listed.stdout.split("\n") if f]
    except (OSError, subprocess.CalledProcessError):
        return [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs]


def main(argv):
    limit, include_all, paths = 80, False, []
    args = iter(argv)
    for a in args:
        if a == "--max":
            limit = int(next(args))
        elif a == "--all":
            include_all = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            paths.append(a)
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True).stdout.strip() \
        or os.getcwd()
    files = []
    for p in paths or [root]:
        if os.path.isdir(p):
            files += tracked_files(p)
        else:
            files.append(p)
    rows = []
    for path in sorted(set(files)):
        rel = os.path.relpath(os.path.abspath(path), root)
        if not SOURCE.search(rel) or not os.path.isfile(path):
            continue
        if not include_all and rel.startswith(NOT_PRODUCTION):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            text = blank(f.read())
        for first, last, name in functions(text):
            length = last - first + 1
            if length > limit:
                rows.append((length, rel, first, name))
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    for length, rel, first, name in rows:
        print(f"{rel}:{first}  {length}  {name}")
    print(f"{len(rows)} function(s) over {limit} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
