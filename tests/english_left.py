#!/usr/bin/env python3
"""english_left.py CATALOG.po OUTPUT... - fails when a Spanish output still says an English sentence.

Two nets, both built from the catalog:
 1. every English message of the catalog (its literal pieces of two words or more, between format
    directives) must not appear in the output;
 2. no line may hold a run of three English words in a row (the words of the catalog's English
    messages that no Spanish message, and no name of the design, uses), which catches a sentence
    that was never marked for translation.
Markdown code blocks (the design file, requests), `code` spans and paths are machine text and are
not read by the second net.
Exit status 0 when clean, 1 with each offending line, its file and what matched."""
import re
import sys

DIRECTIVE = re.compile(r"%(\d+\$)?[-+ #0']*(\*|\d+)?(\.(\*|\d+))?(hh|h|ll|l|L|z|j|t)?[diouxXeEfFgGaAcspn%]")
WORD = re.compile(r"[A-Za-zÁÉÍÓÚÜÑáéíóúüñ]+")


def unquote(s):
    return bytes(s, "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")


def read_po(path):
    """The catalog's entries as dicts of msgctxt/msgid/msgid_plural/msgstr[...] (header left out)."""
    entries, cur, field = [], {}, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        m = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) "(.*)"$', line)
        if m:
            field = m.group(1)
            if field in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in cur):
                entries.append(cur)
                cur = {}
            cur[field] = unquote(m.group(2))
        elif line.startswith('"') and field:
            cur[field] += unquote(line[1:-1])
        else:
            field = None
    if cur:
        entries.append(cur)
    return [e for e in entries if e.get("msgid")]


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    entries = read_po(sys.argv[1])
    spanish_words, english_words, pieces = set(), set(), set()
    for e in entries:
        for k, v in e.items():
            if k.startswith("msgstr"):
                spanish_words.update(w.lower() for w in WORD.findall(v))
    for e in entries:
        eng = [e["msgid"]] + ([e["msgid_plural"]] if "msgid_plural" in e else [])
        translated = [v for k, v in e.items() if k.startswith("msgstr")]
        for text in eng:
            if text in translated:
                continue  # a message that reads the same in both languages
            for piece in DIRECTIVE.split(text):
                if not piece:
                    continue
                for part in piece.split("\n"):
                    part = part.strip(" \t:;,.()[]'\"-—")
                    if len(WORD.findall(part)) >= 2 and len(part) >= 10:
                        pieces.add(part)
            english_words.update(w.lower() for w in WORD.findall(text) if len(w) >= 3)
    english_only = english_words - spanish_words
    bad = 0
    for path in sys.argv[2:]:
        text = open(path, encoding="utf-8").read()
        fenced = False
        for n, line in enumerate(text.split("\n"), 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced  # a Markdown code block: the design file, a request, a key
                continue
            if fenced:
                continue
            hits = [p for p in pieces if p in line]
            # file paths and `code` are names, not sentences
            words = WORD.findall(re.sub(r"`[^`]*`|\S*/\S*", " ", line))
            run, worst = [], []
            for w in words:
                if w.lower() in english_only:
                    run.append(w)
                    if len(run) > len(worst):
                        worst = list(run)
                else:
                    run = []
            if hits or len(worst) >= 3:
                bad += 1
                why = ("catalog message: " + repr(max(hits, key=len))) if hits else ("English words: " + " ".join(worst))
                print(f"{path}:{n}: {why}\n    {line}")
    if bad:
        print(f"{bad} line(s) still in English")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
