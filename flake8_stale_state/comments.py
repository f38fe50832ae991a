"""What a comment on a write says of it that makes the write a use: that it holds its value against the garbage
collector ("keeps the handle alive", "hold onto ref, so the timer doesn't get cleaned up", "to prevent gc to
collect the handle"), or that the attribute is there for others ("so users can see it", "this is a semi-public
API", "kept for backward compatibility", "used by constant_pacing", "tools like LangChain rely on this")."""

from __future__ import annotations

import functools
import re

# the words one of those comments holds: a file without any has none (the patterns compile on first use)
WORDS = (b"alive", b" ref", b"garbage", b"gc", b"GC", b"collect", b"clean", b"public", b"user", b"ackward",
         b"sed by", b"eeded by", b"ely on", b"elies on", b"elied on")


@functools.cache
def patterns() -> tuple[re.Pattern[bytes], re.Pattern[bytes], re.Pattern[bytes]]:
    """What says a value is kept, what says the attribute is for others, and a negation."""
    kept = re.compile(
        rb"\bkeep\w*\s+(?!alive\b)[^.]{1,40}?\balive\b"  # "keep the handle alive", not a "keep-alive" connection
        rb"|\b(?:keep|hold)\w*(?:\s+on(?:to)?|\s+onto)?\s+(?:a\s+|an\s+|the\s+)?(?:strong\s+|hard\s+|live\s+)?"
        rb"ref(?:erence)?s?\b"
        rb"|\b(?:prevent|avoid|stop)\w*\b[^.]{0,40}?\b(?:garbage|gc|collect\w*|clean\w*)"
        rb"|(?:\bnot|n't|\bnever)\b[^.]{0,20}?\b(?:garbage[- ]collected|gc'?e?d|collected|cleaned up)", re.IGNORECASE)
    for_others = re.compile(
        rb"\b(?:(?:semi-)?public\s+(?:api|attribute|interface)|semi-public"
        rb"|(?:is|was|are|were|be|been|made|make|makes|kept|keep|stays?)\b[^.,;]{0,30}?\bpublic\b(?!\s+key)"
        rb"|(?:so|for|lets?|allows?)\s+(?:the\s+)?users?|backwards?[- ]compat\w*"
        rb"|(?:used|needed|relied\s+on)\s+by|rel(?:y|ies)\s+on\s+(?:this|it))\b", re.IGNORECASE)
    negation = re.compile(rb"\b(?:no|not|nothing|none|never)\b|n't\b", re.IGNORECASE)
    return kept, for_others, negation


def lines_saying_used(text: str | bytes) -> set[int]:
    """The lines whose comment `says_used`: found from the words such a comment holds, not line by line."""
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogatepass")
    found: set[int] = set()
    for word in WORDS:
        at = text.find(word)
        while at != -1:
            line_start = text.rfind(b"\n", 0, at) + 1
            comment = text.find(b"#", line_start, at)
            if comment != -1:
                line_end = text.find(b"\n", at)
                if says_used(text[comment:line_end if line_end != -1 else len(text)]):
                    found.add(text.count(b"\n", 0, line_start) + 1)
            at = text.find(word, at + len(word))
    return found


def says_used(comment: bytes) -> bool:
    """The comment says the write is a use, and not that it is none: no negation in the clause of a phrase
    saying the attribute is there for others (`users do not call it`), nor earlier in that of one saying it
    keeps its value (`a counter keeps nothing alive`; `hold onto ref, so it doesn't get cleaned up` does)."""
    kept, for_others, negation = patterns()
    for match in kept.finditer(comment):
        before = re.split(rb"[.;:(]", comment[:match.start()])[-1]
        if not negation.search(before + match.group()) or match.group().lower().startswith((b"not", b"n't", b"never")):
            return True
    for match in for_others.finditer(comment):
        clause = re.split(rb"[.;:(]", comment[:match.start()])[-1] + re.split(rb"[.;:)]", comment[match.start():])[0]
        if not negation.search(clause):
            return True
    return False
